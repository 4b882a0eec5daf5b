//! Boxes in world units and where world space lands on a picture.

/// An axis-aligned box in world units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// The lowest `[x, y]` (left, bottom).
    pub min: [f64; 2],
    /// The highest `[x, y]` (right, top).
    pub max: [f64; 2],
}

impl Bounds {
    /// Extent along x, in world units.
    pub fn width(&self) -> f64 {
        self.max[0] - self.min[0]
    }

    /// Extent along y, in world units.
    pub fn height(&self) -> f64 {
        self.max[1] - self.min[1]
    }

    /// The smallest box holding both.
    pub fn union(self, other: Bounds) -> Bounds {
        Bounds {
            min: [self.min[0].min(other.min[0]), self.min[1].min(other.min[1])],
            max: [self.max[0].max(other.max[0]), self.max[1].max(other.max[1])],
        }
    }

    pub(super) fn include(acc: &mut Option<Bounds>, x: f64, y: f64) {
        let b = Bounds { min: [x, y], max: [x, y] };
        *acc = Some(acc.map_or(b, |a| a.union(b)));
    }
}

/// Where world space lands on a picture: world `(x, y)` is pixel
/// `(origin_px[0] + x·ppu, origin_px[1] − y·ppu)` (pixels grow right and
/// down, world y grows up). For egui, "pixels" are points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// The pixel where world `(0, 0)` lands, from the picture's top-left.
    pub origin_px: [f64; 2],
    /// Zoom: pixels per world unit (`ppu` above).
    pub pixels_per_unit: f64,
}

impl View {
    /// The skeleton origin at the center of a `width × height` picture.
    pub fn centered(width: u32, height: u32, pixels_per_unit: f64) -> View {
        View { origin_px: [f64::from(width) / 2.0, f64::from(height) / 2.0], pixels_per_unit }
    }

    /// The largest view that shows `bounds` whole inside `width × height`
    /// with `margin_px` to spare on every side, centered.
    pub fn fit(bounds: Bounds, width: u32, height: u32, margin_px: f64) -> View {
        let (w, h) = (f64::from(width), f64::from(height));
        let avail = |side: f64| (side - 2.0 * margin_px).max(1.0);
        let sx = if bounds.width() > 0.0 { avail(w) / bounds.width() } else { f64::INFINITY };
        let sy = if bounds.height() > 0.0 { avail(h) / bounds.height() } else { f64::INFINITY };
        let ppu = match sx.min(sy) {
            s if s.is_finite() && s > 0.0 => s,
            _ => 1.0,
        };
        let cx = (bounds.min[0] + bounds.max[0]) / 2.0;
        let cy = (bounds.min[1] + bounds.max[1]) / 2.0;
        View { origin_px: [w / 2.0 - cx * ppu, h / 2.0 + cy * ppu], pixels_per_unit: ppu }
    }

    /// World → pixel.
    pub fn to_px(&self, x: f64, y: f64) -> [f64; 2] {
        [self.origin_px[0] + x * self.pixels_per_unit, self.origin_px[1] - y * self.pixels_per_unit]
    }
}
