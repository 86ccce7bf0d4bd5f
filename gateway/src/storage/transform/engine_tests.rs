//! Rendering real encoded images: sizes, formats, quality, and the limits (a decompression bomb is refused from
//! its header, before any pixel is decoded).

use super::*;
use crate::storage::transform::options::Resize;
use image::{GrayImage, RgbImage, RgbaImage};

fn encoded(img: DynamicImage, format: ImageFormat) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    match format {
        ImageFormat::Jpeg => JpegEncoder::new_with_quality(&mut out, 90).encode_image(&img.to_rgb8()).unwrap(),
        _ => img.write_to(&mut out, format).unwrap(),
    }
    out.into_inner()
}

/// A 350×206 photo-like gradient (the size of storage-js's sadcat.jpg).
fn photo(format: ImageFormat) -> Vec<u8> {
    let img = RgbImage::from_fn(350, 206, |x, y| image::Rgb([(x % 256) as u8, (y % 256) as u8, ((x * y) % 256) as u8]));
    encoded(DynamicImage::ImageRgb8(img), format)
}

fn size_of(bytes: &[u8]) -> (ImageFormat, u32, u32) {
    inspect(bytes, &Limits::default()).unwrap()
}

fn t(w: Option<u32>, h: Option<u32>, resize: Resize, format: Format) -> Transform {
    Transform { width: w, height: h, resize, format, quality: None }
}

#[test]
fn resizes_jpeg_and_keeps_the_format() {
    let out = render(
        &photo(ImageFormat::Jpeg),
        &t(Some(200), Some(200), Resize::Cover, Format::Auto),
        false,
        &Limits::default(),
    )
    .unwrap();
    assert_eq!(out.content_type, "image/jpeg");
    assert_eq!(size_of(&out.bytes), (ImageFormat::Jpeg, 200, 200));
    let out = render(
        &photo(ImageFormat::Png),
        &t(Some(100), Some(100), Resize::Contain, Format::Auto),
        false,
        &Limits::default(),
    )
    .unwrap();
    assert_eq!(size_of(&out.bytes), (ImageFormat::Png, 100, 59));
}

#[test]
fn webp_when_asked_or_accepted_unless_origin() {
    let src = photo(ImageFormat::Jpeg);
    let asked = render(&src, &t(Some(100), None, Resize::Cover, Format::Webp), false, &Limits::default()).unwrap();
    assert_eq!((asked.content_type, size_of(&asked.bytes)), ("image/webp", (ImageFormat::WebP, 100, 59)));
    let accepted = render(&src, &t(Some(100), None, Resize::Cover, Format::Auto), true, &Limits::default()).unwrap();
    assert_eq!(accepted.content_type, "image/webp");
    let origin = render(&src, &t(Some(100), None, Resize::Cover, Format::Origin), true, &Limits::default()).unwrap();
    assert_eq!(origin.content_type, "image/jpeg");
}

#[test]
fn lower_quality_gives_smaller_files() {
    let src = photo(ImageFormat::Png);
    let mut low = t(None, None, Resize::Cover, Format::Webp);
    low.quality = Some(20);
    let mut high = low.clone();
    high.quality = Some(100);
    let (low, high) = (
        render(&src, &low, false, &Limits::default()).unwrap(),
        render(&src, &high, false, &Limits::default()).unwrap(),
    );
    assert!(low.bytes.len() < high.bytes.len(), "{} vs {}", low.bytes.len(), high.bytes.len());
    assert_eq!(size_of(&low.bytes), (ImageFormat::WebP, 350, 206));
}

#[test]
fn keeps_transparency_in_png() {
    let img = RgbaImage::from_fn(40, 40, |x, _| image::Rgba([255, 0, 0, if x < 20 { 0 } else { 255 }]));
    let out = render(
        &encoded(DynamicImage::ImageRgba8(img), ImageFormat::Png),
        &t(Some(20), None, Resize::Cover, Format::Auto),
        false,
        &Limits::default(),
    )
    .unwrap();
    let back = image::load_from_memory(&out.bytes).unwrap().to_rgba8();
    assert_eq!(back.get_pixel(0, 10)[3], 0);
    assert_eq!(back.get_pixel(19, 10)[3], 255);
}

#[test]
fn a_decompression_bomb_is_refused_from_its_header() {
    // 5000×4000 of zeros: ~20 KB of PNG that would inflate to 80 MB of RGBA
    let bomb = encoded(DynamicImage::ImageLuma8(GrayImage::new(5000, 4000)), ImageFormat::Png);
    assert!(bomb.len() < 200_000, "{}", bomb.len());
    let err = render(&bomb, &t(Some(10), None, Resize::Cover, Format::Auto), false, &Limits::default()).err();
    assert_eq!(err, Some(RenderError::ResolutionTooLarge));
    // the header alone decided: a limit that allows 20 MP accepts the same file
    let roomy = Limits { max_pixels: 20_000_000, ..Limits::default() };
    assert_eq!(inspect(&bomb, &roomy).ok(), Some((ImageFormat::Png, 5000, 4000)));
}

#[test]
fn oversized_files_and_non_images_are_refused() {
    let src = photo(ImageFormat::Jpeg);
    let small = Limits { max_source_bytes: src.len() - 1, ..Limits::default() };
    let err = |bytes: &[u8], limits: &Limits| render(bytes, &Transform::default(), false, limits).err();
    assert_eq!(err(&src, &small), Some(RenderError::FileTooLarge));
    assert_eq!(err(b"hello, not an image", &Limits::default()), Some(RenderError::InvalidSource));
    // a JPEG cut inside its header
    assert_eq!(err(&src[..30], &Limits::default()), Some(RenderError::InvalidSource));
}
