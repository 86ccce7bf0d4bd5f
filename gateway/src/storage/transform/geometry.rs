//! Output size for a source size and options, with imgproxy's rules as Supabase runs it: never enlarge; cover
//! scales to cover the box then crops it from the centre; contain scales to fit inside; fill stretches each axis;
//! one missing dimension follows the aspect ratio (except fill, which keeps it).

use super::options::{Resize, Transform};

/// What to do to the decoded image: scale it to `width`×`height`, then (cover only) crop the centre to
/// `crop`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    pub width: u32,
    pub height: u32,
    pub crop: Option<(u32, u32)>,
}

fn scaled(size: u32, shrink: f64) -> u32 {
    ((size as f64 / shrink).round() as u32).max(1)
}

/// `None` when no size was asked for (the image keeps its size).
pub fn plan(src_w: u32, src_h: u32, t: &Transform) -> Option<Plan> {
    if t.width.is_none() && t.height.is_none() {
        return None;
    }
    let (sw, sh) = (src_w as f64, src_h as f64);
    let w_shrink = t.width.map_or(1.0, |w| sw / w as f64);
    let h_shrink = t.height.map_or(1.0, |h| sh / h as f64);
    if t.resize == Resize::Fill {
        return Some(Plan {
            width: scaled(src_w, w_shrink.max(1.0)),
            height: scaled(src_h, h_shrink.max(1.0)),
            crop: None,
        });
    }
    let shrink = match (t.width, t.height, t.resize) {
        (None, _, _) => h_shrink,
        (_, None, _) => w_shrink,
        (_, _, Resize::Contain) => w_shrink.max(h_shrink),
        _ => w_shrink.min(h_shrink),
    }
    .max(1.0);
    let (width, height) = (scaled(src_w, shrink), scaled(src_h, shrink));
    let crop = (t.resize == Resize::Cover)
        .then(|| (t.width.unwrap_or(width).min(width), t.height.unwrap_or(height).min(height)));
    Some(Plan { width, height, crop: crop.filter(|c| *c != (width, height)) })
}

impl Plan {
    /// The final size.
    pub fn output(&self) -> (u32, u32) {
        self.crop.unwrap_or((self.width, self.height))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(w: Option<u32>, h: Option<u32>, resize: Resize) -> Transform {
        Transform { width: w, height: h, resize, ..Default::default() }
    }

    #[test]
    fn cover_scales_to_cover_then_crops_the_centre() {
        // storage-js's sadcat.jpg is 350×206
        let p = plan(350, 206, &t(Some(200), Some(200), Resize::Cover)).unwrap();
        assert_eq!((p.width, p.height, p.output()), (340, 200, (200, 200)));
    }

    #[test]
    fn contain_fits_inside_without_padding() {
        let p = plan(350, 206, &t(Some(100), Some(100), Resize::Contain)).unwrap();
        assert_eq!(p.output(), (100, 59));
    }

    #[test]
    fn fill_stretches_each_axis() {
        let p = plan(350, 206, &t(Some(100), Some(100), Resize::Fill)).unwrap();
        assert_eq!(p.output(), (100, 100));
        let p = plan(350, 206, &t(Some(100), None, Resize::Fill)).unwrap();
        assert_eq!(p.output(), (100, 206));
    }

    #[test]
    fn one_dimension_keeps_the_aspect_ratio() {
        assert_eq!(plan(400, 200, &t(Some(100), None, Resize::Cover)).unwrap().output(), (100, 50));
        assert_eq!(plan(400, 200, &t(None, Some(100), Resize::Contain)).unwrap().output(), (200, 100));
    }

    #[test]
    fn never_enlarges() {
        assert_eq!(plan(350, 206, &t(Some(1000), Some(1000), Resize::Contain)).unwrap().output(), (350, 206));
        // cover asked for more than the image has: the crop cannot exceed the image
        assert_eq!(plan(350, 206, &t(Some(400), Some(400), Resize::Cover)).unwrap().output(), (350, 206));
        assert_eq!(plan(350, 206, &t(Some(300), Some(400), Resize::Cover)).unwrap().output(), (300, 206));
        assert!(plan(350, 206, &Transform::default()).is_none());
    }
}
