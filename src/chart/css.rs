//! Colours and fonts as CSS strings for the browser's canvas
//! (`ui::canvas::canvas_backend`: the crisp lines it strokes itself and the fonts it
//! measures text with), written with integers: strings that do not depend on
//! how a float prints.

/// `rgba(r,g,b,a)` with the alpha in thousandths, written with integers.
pub fn css_color((r, g, b): (u8, u8, u8), alpha: f64) -> String {
    let a = (alpha.clamp(0.0, 1.0) * 1000.0).round() as u32;
    let alpha = if a >= 1000 {
        "1".to_string()
    } else {
        format!("0.{a:03}")
    };
    format!("rgba({r},{g},{b},{alpha})")
}

/// `style size family`, the size in hundredths of a pixel, written with integers.
pub fn css_font(style: &str, size: f64, family: &str) -> String {
    let h = (size.clamp(0.0, 10_000.0) * 100.0).round() as u32;
    format!("{style} {}.{:02}px {family}", h / 100, h % 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_and_fonts_in_css_without_floats() {
        let c = |alpha| css_color((31, 111, 178), alpha);
        assert_eq!((c(1.0)), "rgba(31,111,178,1)");
        assert_eq!((c(0.85)), "rgba(31,111,178,0.850)");
        assert_eq!((c(0.0)), "rgba(31,111,178,0.000)");
        assert_eq!((c(0.0004)), "rgba(31,111,178,0.000)");
        assert_eq!(css_font("normal", 14.0, "sans-serif"), "normal 14.00px sans-serif");
        assert_eq!(css_font("bold", 9.677_419, "sans-serif"), "bold 9.68px sans-serif");
    }
}
