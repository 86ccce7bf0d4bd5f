//! Transformation options as Supabase Storage takes them (query `width`, `height`, `resize`, `quality`, `format`,
//! or the `transformations` string inside a signed URL's token), validated with its rules and messages, and the
//! `X-Transformations` text that names what was applied.

use std::fmt::Write;

/// `resize`: cover (imgproxy `fill`, the default), contain (`fit`), fill (`force`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Resize {
    #[default]
    Cover,
    Contain,
    Fill,
}

impl Resize {
    fn parse(s: &str) -> Option<Resize> {
        match s {
            "cover" => Some(Resize::Cover),
            "contain" => Some(Resize::Contain),
            "fill" => Some(Resize::Fill),
            _ => None,
        }
    }

    /// imgproxy's name, as `X-Transformations` shows it.
    pub fn resizing_type(self) -> &'static str {
        match self {
            Resize::Cover => "fill",
            Resize::Contain => "fit",
            Resize::Fill => "force",
        }
    }
}

/// `format`: absent (keep the source's, or WebP when the client accepts it), `origin` (always the source's),
/// `webp`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Format {
    #[default]
    Auto,
    Origin,
    Webp,
}

/// Storage's `gravity` values (imgproxy's compass points, centre, smart and focal point).
const GRAVITIES: [&str; 11] = ["no", "so", "ea", "we", "noea", "nowe", "soea", "sowe", "ce", "sm", "fp"];

/// Valid Storage options this engine does not apply: `format=avif` (no AVIF encoder; WebP is served) and `gravity`
/// other than the plain centre (the engine crops from the centre). The caller refuses them (`FeatureNotEnabled`)
/// rather than render without them; `None` when everything given is applied. `get` reads one option.
pub fn unapplied<'a>(get: impl Fn(&str) -> Option<&'a str>) -> Option<&'static str> {
    if get("format") == Some("avif") {
        return Some("format avif is not supported by this server's image transformations (use webp or origin)");
    }
    let offsets = get("x_offset").is_some() || get("y_offset").is_some();
    match get("gravity") {
        None => None,
        Some("ce") if !offsets => None,
        Some(_) => Some(
            "gravity is not supported by this server's image transformations (images are cropped from their centre)",
        ),
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Transform {
    pub width: Option<u32>,
    pub height: Option<u32>,
    pub resize: Resize,
    pub quality: Option<u8>,
    pub format: Format,
}

/// Width and height are clamped into this range (Storage's IMAGE_TRANSFORMATION_LIMIT_MIN/MAX_SIZE).
#[derive(Debug, Clone, Copy)]
pub struct SizeLimits {
    pub min: u32,
    pub max: u32,
}

impl Default for SizeLimits {
    fn default() -> Self {
        SizeLimits { min: 1, max: 2000 }
    }
}

/// A query parameter that fails Storage's schema: the message Fastify gives (`querystring/quality must be >= 20`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidOption(pub String);

fn integer(name: &str, value: &str) -> Result<i64, InvalidOption> {
    value.trim().parse::<i64>().map_err(|_| InvalidOption(format!("querystring/{name} must be integer")))
}

/// A width or height: a non-negative integer, clamped to the allowed sizes (0 means unset).
fn size(key: &str, value: &str, sizes: SizeLimits) -> Result<Option<u32>, InvalidOption> {
    let n = integer(key, value)?;
    if n < 0 {
        return Err(InvalidOption(format!("querystring/{key} must be >= 0")));
    }
    Ok((n > 0).then(|| (n.min(u32::MAX as i64) as u32).clamp(sizes.min, sizes.max)))
}

/// A quality from 20 to 100.
fn quality(value: &str) -> Result<u8, InvalidOption> {
    let q = integer("quality", value)?;
    if !(20..=100).contains(&q) {
        let bound = if q < 20 { ">= 20" } else { "<= 100" };
        return Err(InvalidOption(format!("querystring/quality must be {bound}")));
    }
    Ok(q as u8)
}

fn format(value: &str) -> Result<Format, InvalidOption> {
    match value {
        "origin" => Ok(Format::Origin),
        "webp" => Ok(Format::Webp),
        // valid for Storage's schema; refused by the caller as not applied here (`unapplied`)
        "avif" => Ok(Format::Auto),
        _ => Err(InvalidOption("querystring/format must be equal to one of the allowed values".into())),
    }
}

impl Transform {
    /// From query parameters (unknown ones, such as `download` or `cacheNonce`, are not this function's).
    pub fn from_query<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
        sizes: SizeLimits,
    ) -> Result<Self, InvalidOption> {
        let mut t = Transform::default();
        for (key, value) in pairs {
            match key {
                "width" => t.width = size(key, value, sizes)?,
                "height" => t.height = size(key, value, sizes)?,
                "resize" => {
                    t.resize = Resize::parse(value).ok_or_else(|| {
                        InvalidOption("querystring/resize must be equal to one of the allowed values".into())
                    })?;
                }
                "quality" => t.quality = Some(quality(value)?),
                "format" => t.format = format(value)?,
                "gravity" if !GRAVITIES.contains(&value) => {
                    return Err(InvalidOption("querystring/gravity must be equal to one of the allowed values".into()))
                }
                "x_offset" | "y_offset" if value.trim().parse::<f64>().map_or(true, |n| !n.is_finite()) => {
                    return Err(InvalidOption(format!("querystring/{key} must be number")));
                }
                _ => {}
            }
        }
        Ok(t)
    }

    /// From a signed URL's `transformations` claim (`height:200,width:200,resize:cover,quality:60`): unknown or
    /// empty entries are skipped, an unknown resize mode means cover, as Storage parses it back.
    pub fn from_claim(text: &str, sizes: SizeLimits) -> Self {
        let mut t = Transform::default();
        for (key, value) in text.split(',').filter_map(|p| p.split_once(':')) {
            let number = value.parse::<u32>().ok();
            match key {
                "width" => t.width = number.filter(|n| *n > 0).map(|n| n.clamp(sizes.min, sizes.max)),
                "height" => t.height = number.filter(|n| *n > 0).map(|n| n.clamp(sizes.min, sizes.max)),
                "resize" => t.resize = Resize::parse(value).unwrap_or_default(),
                "quality" => t.quality = number.filter(|q| (20..=100).contains(q)).map(|q| q as u8),
                "format" if value == "webp" => t.format = Format::Webp,
                _ => {}
            }
        }
        t
    }

    /// Whether any option is set (an empty transform serves the object unchanged).
    pub fn is_empty(&self) -> bool {
        *self == Transform::default()
    }

    /// What Storage signs into a token: `height:H,width:W,resize:<mode>,quality:Q,format:F` (the mode as the
    /// caller gave it; `origin` is not kept).
    pub fn claim(&self, resize_given: Option<&str>) -> String {
        let mut parts = Vec::new();
        if let Some(h) = self.height {
            parts.push(format!("height:{h}"));
        }
        if let Some(w) = self.width {
            parts.push(format!("width:{w}"));
        }
        if self.width.is_some() || self.height.is_some() {
            parts.push(format!("resize:{}", resize_given.unwrap_or("undefined")));
        }
        if let Some(q) = self.quality {
            parts.push(format!("quality:{q}"));
        }
        if self.format == Format::Webp {
            parts.push("format:webp".into());
        }
        parts.join(",")
    }

    /// The `X-Transformations` header: imgproxy's option list (`height:200,width:200,resizing_type:fill,quality:60`).
    pub fn applied(&self) -> String {
        let mut out = String::new();
        let mut push = |s: String| {
            if !out.is_empty() {
                out.push(',');
            }
            out.push_str(&s);
        };
        if let Some(h) = self.height {
            push(format!("height:{h}"));
        }
        if let Some(w) = self.width {
            push(format!("width:{w}"));
        }
        if self.width.is_some() || self.height.is_some() {
            push(format!("resizing_type:{}", self.resize.resizing_type()));
        }
        if let Some(q) = self.quality {
            push(format!("quality:{q}"));
        }
        if self.format == Format::Webp {
            push("format:webp".into());
        }
        out
    }

    /// A stable text for cache keys (with the output format decided).
    pub fn cache_key(&self, webp: bool) -> String {
        let mut k = String::new();
        let (w, h, r, q, f) = (self.width, self.height, self.resize, self.quality, self.format);
        let _ = write!(k, "{w:?}|{h:?}|{r:?}|{q:?}|{f:?}|{webp}");
        k
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(pairs: &[(&str, &str)]) -> Result<Transform, InvalidOption> {
        Transform::from_query(pairs.iter().copied(), SizeLimits::default())
    }

    #[test]
    fn sizes_are_clamped_and_zero_means_unset() {
        let t = q(&[("width", "5000"), ("height", "0")]).unwrap();
        assert_eq!((t.width, t.height), (Some(2000), None));
    }

    #[test]
    fn invalid_values_get_storages_messages() {
        assert_eq!(q(&[("quality", "10")]).unwrap_err().0, "querystring/quality must be >= 20");
        assert_eq!(q(&[("quality", "101")]).unwrap_err().0, "querystring/quality must be <= 100");
        assert_eq!(q(&[("width", "abc")]).unwrap_err().0, "querystring/width must be integer");
        assert_eq!(
            q(&[("resize", "stretch")]).unwrap_err().0,
            "querystring/resize must be equal to one of the allowed values"
        );
        assert!(q(&[("format", "avif\nmalicious")])
            .unwrap_err()
            .0
            .contains("must be equal to one of the allowed values"));
    }

    #[test]
    fn gravity_and_avif_are_validated_then_named_as_not_applied() {
        assert_eq!(
            q(&[("gravity", "north")]).unwrap_err().0,
            "querystring/gravity must be equal to one of the allowed values"
        );
        assert_eq!(q(&[("x_offset", "left")]).unwrap_err().0, "querystring/x_offset must be number");
        let pairs = |p: &'static [(&'static str, &'static str)]| {
            move |k: &str| p.iter().find(|(key, _)| *key == k).map(|(_, v)| *v)
        };
        for given in [&[("gravity", "no")][..], &[("gravity", "fp"), ("x_offset", "0.2"), ("y_offset", "0.1")]] {
            assert!(q(given).is_ok());
            assert!(unapplied(pairs(given)).unwrap().starts_with("gravity is not supported"), "{given:?}");
        }
        assert!(unapplied(pairs(&[("format", "avif")])).unwrap().starts_with("format avif"));
        assert_eq!(unapplied(pairs(&[("gravity", "ce"), ("width", "10")])), None);
        assert!(unapplied(pairs(&[("gravity", "ce"), ("x_offset", "5")])).is_some());
        assert_eq!(unapplied(pairs(&[("x_offset", "5")])), None, "offsets without gravity do nothing in Storage");
    }

    #[test]
    fn applied_lists_imgproxy_options_in_storages_order() {
        let t = q(&[("width", "200"), ("height", "200"), ("quality", "60")]).unwrap();
        assert_eq!(t.applied(), "height:200,width:200,resizing_type:fill,quality:60");
        let t = q(&[("width", "100"), ("resize", "contain"), ("format", "webp")]).unwrap();
        assert_eq!(t.applied(), "width:100,resizing_type:fit,format:webp");
        assert_eq!(q(&[("format", "origin")]).unwrap().applied(), "");
    }

    #[test]
    fn cache_keys_differ_by_format() {
        let auto = q(&[("width", "100")]).unwrap();
        let webp = q(&[("width", "100"), ("format", "webp")]).unwrap();
        assert_ne!(auto.cache_key(false), webp.cache_key(false));
        assert_ne!(auto.cache_key(false), auto.cache_key(true));
    }

    #[test]
    fn signed_claims_round_trip() {
        let t = q(&[("width", "200"), ("height", "300"), ("resize", "fill"), ("quality", "70")]).unwrap();
        let claim = t.claim(Some("fill"));
        assert_eq!(claim, "height:300,width:200,resize:fill,quality:70");
        assert_eq!(Transform::from_claim(&claim, SizeLimits::default()), t);
        // a mode the caller did not give reads back as cover
        let back = Transform::from_claim("height:10,width:10,resize:undefined", SizeLimits::default());
        assert_eq!(back.resize, Resize::Cover);
    }
}
