//! Decode → orient → resize → encode, with bounded memory: the source's size is capped, its pixel count is read
//! from the header and refused over the limit before anything is decoded (a decompression bomb never inflates),
//! and the decoder's allocations are capped to what that header allows.

use super::geometry::{self, Plan};
use super::options::{Format, Transform};
use fast_image_resize::images::{TypedImage, TypedImageRef};
use fast_image_resize::{pixels::U8x4, FilterType, ResizeAlg, ResizeOptions, Resizer};
use image::{codecs::jpeg::JpegEncoder, DynamicImage, ImageDecoder, ImageFormat, ImageReader};
use std::io::Cursor;

/// What a source may cost.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_source_bytes: usize,
    pub max_pixels: u64,
}

impl Default for Limits {
    /// imgproxy's defaults as the Supabase CLI sets them: 25 MB sources; 16.8 megapixels (imgproxy's own default).
    fn default() -> Self {
        Limits { max_source_bytes: 25_000_000, max_pixels: 16_800_000 }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RenderError {
    /// The stored file is larger than the source size limit.
    FileTooLarge,
    /// The header declares more pixels than the limit.
    ResolutionTooLarge,
    /// Not an image this renders (or a corrupt one).
    InvalidSource,
    /// An SVG source asked for as a raster format (SVGs are served as stored, never rasterised).
    VectorToRaster,
}

impl RenderError {
    /// Storage's public text for the failure.
    pub fn message(&self) -> &'static str {
        match self {
            RenderError::FileTooLarge => "The source image file is too large to process",
            RenderError::ResolutionTooLarge => "The source image resolution is too large to process",
            RenderError::InvalidSource => "The source image is invalid or unsupported for rendering",
            RenderError::VectorToRaster => {
                "format webp of an SVG source is not supported by this server's image transformations (SVGs are served as stored: use origin)"
            }
        }
    }
}

/// A rendered image.
#[derive(Clone)]
pub struct Rendered {
    /// Shared with every response that serves it (a cache hit copies nothing).
    pub bytes: bytes::Bytes,
    pub content_type: &'static str,
    pub width: u32,
    pub height: u32,
}

impl std::fmt::Debug for Rendered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Rendered({} {}x{}, {} bytes)", self.content_type, self.width, self.height, self.bytes.len())
    }
}

const DEFAULT_QUALITY: u8 = 80;

fn reader(source: &[u8]) -> Result<ImageReader<Cursor<&[u8]>>, RenderError> {
    ImageReader::new(Cursor::new(source)).with_guessed_format().map_err(|_| RenderError::InvalidSource)
}

/// Reads the header only: format and size, refusing what exceeds `limits`.
pub fn inspect(source: &[u8], limits: &Limits) -> Result<(ImageFormat, u32, u32), RenderError> {
    if source.len() > limits.max_source_bytes {
        return Err(RenderError::FileTooLarge);
    }
    let r = reader(source)?;
    let format = r.format().ok_or(RenderError::InvalidSource)?;
    if !matches!(format, ImageFormat::Jpeg | ImageFormat::Png | ImageFormat::WebP | ImageFormat::Gif | ImageFormat::Bmp)
    {
        return Err(RenderError::InvalidSource);
    }
    let (w, h) = r.into_dimensions().map_err(|_| RenderError::InvalidSource)?;
    if w as u64 * h as u64 > limits.max_pixels {
        return Err(RenderError::ResolutionTooLarge);
    }
    Ok((format, w, h))
}

fn decode(source: &[u8], w: u32, h: u32) -> Result<DynamicImage, RenderError> {
    let mut r = reader(source)?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(w);
    limits.max_image_height = Some(h);
    // the frame itself (at most 16 bits × 4 channels) plus the decoder's working memory
    limits.max_alloc = Some(w as u64 * h as u64 * 8 + (16 << 20));
    r.limits(limits);
    let mut decoder = r.into_decoder().map_err(|_| RenderError::InvalidSource)?;
    let orientation = decoder.orientation().ok();
    let mut img = DynamicImage::from_decoder(decoder).map_err(|_| RenderError::InvalidSource)?;
    if let Some(o) = orientation {
        img.apply_orientation(o);
    }
    Ok(img)
}

/// Renders `source` with `t`; `accepts_webp` is whether the client's `Accept` names `image/webp`.
pub fn render(source: &[u8], t: &Transform, accepts_webp: bool, limits: &Limits) -> Result<Rendered, RenderError> {
    let (format, w, h) = inspect(source, limits)?;
    let img = decode(source, w, h)?;
    let img = match geometry::plan(img.width(), img.height(), t) {
        Some(plan) => resize(&img, &plan)?,
        None => img,
    };
    let webp = t.format == Format::Webp || (t.format == Format::Auto && accepts_webp) || format == ImageFormat::WebP;
    let quality = t.quality.unwrap_or(DEFAULT_QUALITY);
    let (bytes, content_type) =
        if webp { (encode_webp(&img, quality)?, "image/webp") } else { encode_as(&img, format, quality)? };
    Ok(Rendered { bytes: bytes.into(), content_type, width: img.width(), height: img.height() })
}

/// Scales (and for cover, crops the centre) with a Lanczos3 filter on 8-bit RGBA.
fn resize(img: &DynamicImage, plan: &Plan) -> Result<DynamicImage, RenderError> {
    let rgba = img.to_rgba8();
    let (sw, sh) = rgba.dimensions();
    // typed views: `Resizer::resize` would match on all 13 pixel types at run time and so instantiate every one of
    // them here (a fifth of this crate's generic instances, compiled in its serial tail); only RGBA8 is ever resized
    let src = TypedImageRef::<U8x4>::from_buffer(sw, sh, rgba.as_raw()).map_err(|_| RenderError::InvalidSource)?;
    let (dw, dh) = plan.output();
    let mut out = image::RgbaImage::new(dw, dh);
    let mut dst = TypedImage::<U8x4>::from_buffer(dw, dh, &mut out).map_err(|_| RenderError::InvalidSource)?;
    let mut options = ResizeOptions::new().resize_alg(ResizeAlg::Convolution(FilterType::Lanczos3));
    if plan.crop.is_some() {
        options = options.fit_into_destination(Some((0.5, 0.5)));
    }
    Resizer::new().resize_typed(&src, &mut dst, &options).map_err(|_| RenderError::InvalidSource)?;
    Ok(DynamicImage::ImageRgba8(out))
}

fn encode_webp(img: &DynamicImage, quality: u8) -> Result<Vec<u8>, RenderError> {
    let rgba = img.to_rgba8();
    let encoder = webp::Encoder::from_rgba(rgba.as_raw(), rgba.width(), rgba.height());
    let memory = encoder.encode_simple(false, quality as f32).map_err(|_| RenderError::InvalidSource)?;
    Ok(memory.to_vec())
}

/// The source's own format (JPEG at `quality`; PNG, GIF and BMP losslessly).
fn encode_as(img: &DynamicImage, format: ImageFormat, quality: u8) -> Result<(Vec<u8>, &'static str), RenderError> {
    let mut out = Cursor::new(Vec::new());
    let content_type = match format {
        ImageFormat::Jpeg => {
            let rgb = img.to_rgb8();
            JpegEncoder::new_with_quality(&mut out, quality)
                .encode_image(&rgb)
                .map_err(|_| RenderError::InvalidSource)?;
            "image/jpeg"
        }
        ImageFormat::Gif | ImageFormat::Bmp | ImageFormat::Png => {
            let target =
                if format == ImageFormat::Png { img.clone() } else { DynamicImage::ImageRgba8(img.to_rgba8()) };
            target.write_to(&mut out, format).map_err(|_| RenderError::InvalidSource)?;
            match format {
                ImageFormat::Gif => "image/gif",
                ImageFormat::Bmp => "image/bmp",
                _ => "image/png",
            }
        }
        _ => return Err(RenderError::InvalidSource),
    };
    Ok((out.into_inner(), content_type))
}

#[cfg(test)]
#[path = "engine_tests.rs"]
mod tests;
