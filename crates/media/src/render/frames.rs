//! Frames of an animation as pictures, with one framing for them all.
//! [`FrameSpec`] decides the view once (for [`Framing::Fit`], from the
//! bounds of the whole animation); a [`FrameRenderer`] draws frames with it
//! into RGBA images. Writing them to files (PNG, sequences, sheets, GIFs)
//! is `formats::frames`' job; drawing many frames on every core is done
//! there too, each thread with a renderer of its own over the same spec.

use image::RgbaImage;

use super::{
    Bounds, DrawList, DrawOptions, ORIGIN_MARK_PX, RenderCache, RenderWarning, Rgba, View,
    animation_bounds, build_draw_list_into, cpu,
};
use skelpad_lang::model::{AnimId, Armature, SkinId};
use skelpad_lang::runtime::{Pose, evaluate_into};

/// How the skeleton is placed in the picture.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Framing {
    /// Scale and center so that everything the animation draws at any of
    /// its frames fits (the setup pose without an animation).
    Fit,
    /// The skeleton origin at the center, y up, `Z` pixels per unit: the
    /// editor's canvas at zoom `Z`.
    Zoom(f64),
}

/// What to render.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// `None`: the setup pose.
    pub anim: Option<AnimId>,
    /// The skin shown.
    pub skin: SkinId,
    /// Picture width in pixels (1 to 16384).
    pub width: u32,
    /// Picture height in pixels (1 to 16384).
    pub height: u32,
    /// How the skeleton is placed in the picture.
    pub framing: Framing,
    /// `None`: transparent.
    pub background: Option<Rgba>,
    /// Draw the bone overlay.
    pub bones: bool,
}

/// How every frame of an export is drawn: the armature, the settings and
/// the view decided from them. Cheap to copy; shared by the threads that
/// draw frames (each with a [`FrameRenderer`] of its own).
#[derive(Clone, Debug)]
pub struct FrameSpec<'a> {
    armature: &'a Armature,
    settings: Settings,
    view: View,
    options: DrawOptions,
}

/// Renders frames of one armature with fixed settings ([`FrameSpec`]) into
/// pictures, keeping tessellations in its cache between frames.
pub struct FrameRenderer<'a> {
    spec: FrameSpec<'a>,
    cache: &'a mut RenderCache,
    pose: Pose,
    list: DrawList,
    warnings: Vec<RenderWarning>,
}

/// Margin kept around fitted content, in pixels.
fn fit_margin(width: u32, height: u32) -> f64 {
    (f64::from(width.min(height)) * 0.04).max(2.0)
}

impl<'a> FrameSpec<'a> {
    /// The spec for `settings`, or why the settings cannot make a picture
    /// (size out of range, zoom not a positive number). `cache` measures the
    /// animation's bounds for [`Framing::Fit`].
    pub fn new(
        armature: &'a Armature,
        settings: Settings,
        cache: &mut RenderCache,
    ) -> Result<FrameSpec<'a>, String> {
        let (w, h) = (settings.width, settings.height);
        if w == 0 || h == 0 || w > 16384 || h > 16384 {
            return Err(format!(
                "picture size {w}×{h} is out of range (1 to 16384 pixels per side)"
            ));
        }
        let view = match settings.framing {
            Framing::Zoom(z) if z.is_finite() && z > 0.0 => View::centered(w, h, z),
            Framing::Zoom(z) => return Err(format!("zoom must be a positive number, not {z}")),
            Framing::Fit => {
                let fit = |b: Option<Bounds>, margin: f64| {
                    b.map_or(View::centered(w, h, 1.0), |b| View::fit(b, w, h, margin))
                };
                let shapes =
                    DrawOptions { pixels_per_unit: 1.0, bones: false, ..DrawOptions::default() };
                let rough = fit(
                    animation_bounds(armature, settings.anim, settings.skin, &shapes, cache),
                    fit_margin(w, h),
                );
                if settings.bones {
                    // Origin marks have a size in pixels: measure again at
                    // the scale found, with the overlay.
                    let with_bones = DrawOptions {
                        pixels_per_unit: rough.pixels_per_unit,
                        bones: true,
                        ..DrawOptions::default()
                    };
                    let b = animation_bounds(
                        armature,
                        settings.anim,
                        settings.skin,
                        &with_bones,
                        cache,
                    );
                    fit(b, fit_margin(w, h) + ORIGIN_MARK_PX)
                } else {
                    rough
                }
            }
        };
        let options = DrawOptions {
            pixels_per_unit: view.pixels_per_unit,
            bones: settings.bones,
            contours: true,
        };
        Ok(FrameSpec { armature, settings, view, options })
    }

    /// A renderer drawing with this spec, keeping its work in `cache`.
    pub fn renderer<'c>(&self, cache: &'c mut RenderCache) -> FrameRenderer<'c>
    where
        'a: 'c,
    {
        FrameRenderer {
            spec: self.clone(),
            cache,
            pose: Pose::default(),
            list: DrawList::default(),
            warnings: Vec::new(),
        }
    }

    /// The view every frame is drawn with.
    pub fn view(&self) -> View {
        self.view
    }

    /// The settings it was made with.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The armature drawn.
    pub fn armature(&self) -> &'a Armature {
        self.armature
    }
}

impl<'a> FrameRenderer<'a> {
    /// A renderer for `settings` (see [`FrameSpec::new`]).
    pub fn new(
        armature: &'a Armature,
        settings: Settings,
        cache: &'a mut RenderCache,
    ) -> Result<FrameRenderer<'a>, String> {
        let spec = FrameSpec::new(armature, settings, cache)?;
        Ok(spec.renderer(cache))
    }

    /// How it draws.
    pub fn spec(&self) -> &FrameSpec<'a> {
        &self.spec
    }

    /// The view every frame is drawn with.
    pub fn view(&self) -> View {
        self.spec.view
    }

    /// The settings it was made with.
    pub fn settings(&self) -> &Settings {
        &self.spec.settings
    }

    /// A new cache for another renderer of the same spec: the same images
    /// (already decoded, shared), no tessellations.
    pub fn fork_cache(&self) -> RenderCache {
        self.cache.fork()
    }

    /// Everything that could not be drawn so far, once each.
    pub fn warnings(&self) -> &[RenderWarning] {
        &self.warnings
    }

    /// Adds warnings (from renderers of the same spec on other threads),
    /// each once, after those it has.
    pub fn add_warnings(&mut self, warnings: impl IntoIterator<Item = RenderWarning>) {
        for w in warnings {
            if !self.warnings.contains(&w) {
                self.warnings.push(w);
            }
        }
    }

    /// Its warnings, taken out.
    pub fn take_warnings(&mut self) -> Vec<RenderWarning> {
        std::mem::take(&mut self.warnings)
    }

    /// The picture at `time_secs` (used as given; wrap it for loops).
    pub fn frame(&mut self, time_secs: f64) -> Result<RgbaImage, String> {
        let spec = &self.spec;
        let anim = spec.settings.anim.and_then(|a| spec.armature.animation(a));
        evaluate_into(&mut self.pose, spec.armature, anim, spec.settings.skin, time_secs);
        build_draw_list_into(&mut self.list, spec.armature, &self.pose, &spec.options, self.cache);
        for w in self.list.warnings.drain(..) {
            if !self.warnings.contains(&w) {
                self.warnings.push(w);
            }
        }
        cpu::render_rgba(
            &self.list,
            &spec.view,
            spec.settings.width,
            spec.settings.height,
            spec.settings.background,
        )
    }
}
