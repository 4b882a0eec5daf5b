//! Two back ends, one picture: the same draw lists go through the epaint
//! back end (the editor's canvas) and the tiny-skia back end (files). The
//! epaint meshes are rasterized here by an independent, deliberately plain
//! rasterizer that works like a GPU with 4×4 multisampling (each sample is
//! inside a triangle or not, blended source-over in mesh order, textures
//! sampled bilinearly and multiplied by the vertex color), and the two
//! pictures must agree.
//!
//! Tolerance: premultiplied channels; the mean difference over all pixels
//! and channels must stay below 0.75/255, and at most 0.5 % of pixels may
//! differ by more than 40/255 in some channel (measured: at most 0.3/255
//! and 0.15 %) (anti-aliased edges are computed
//! differently: 16 samples here, tiny-skia's coverage there; translucent
//! strokes overlap themselves in meshes).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use epaint::TextureId;
use skelpad::compile::compile;
use skelpad::render::{self, DrawOptions, RenderCache, SpriteImage, View};

const SS: usize = 4;

/// Rasterizes epaint meshes into premultiplied RGBA (0..1) pixels.
fn raster_meshes(
    meshes: &[epaint::Mesh],
    w: usize,
    h: usize,
    textures: &HashMap<TextureId, Arc<SpriteImage>>,
) -> Vec<[f32; 4]> {
    let (sw, sh) = (w * SS, h * SS);
    let mut samples = vec![[0f32; 4]; sw * sh];
    for mesh in meshes {
        let tex = textures.get(&mesh.texture_id);
        assert!(
            tex.is_some() || mesh.texture_id == TextureId::default(),
            "unknown texture {:?}",
            mesh.texture_id
        );
        for t in mesh.indices.chunks_exact(3) {
            let v = [t[0], t[1], t[2]].map(|i| mesh.vertices[i as usize]);
            // Sample positions in pixel units: (x + (i + 0.5) / SS).
            let p = v.map(|v| [v.pos.x as f64, v.pos.y as f64]);
            let area = (p[1][0] - p[0][0]) * (p[2][1] - p[0][1])
                - (p[1][1] - p[0][1]) * (p[2][0] - p[0][0]);
            if area.abs() < 1e-12 {
                continue;
            }
            let min_x = p.iter().map(|q| q[0]).fold(f64::INFINITY, f64::min);
            let max_x = p.iter().map(|q| q[0]).fold(f64::NEG_INFINITY, f64::max);
            let min_y = p.iter().map(|q| q[1]).fold(f64::INFINITY, f64::min);
            let max_y = p.iter().map(|q| q[1]).fold(f64::NEG_INFINITY, f64::max);
            let sx0 = ((min_x * SS as f64 - 0.5).floor().max(0.0)) as usize;
            let sx1 = ((max_x * SS as f64 - 0.5).ceil().min(sw as f64 - 1.0)).max(-1.0) as isize;
            let sy0 = ((min_y * SS as f64 - 0.5).floor().max(0.0)) as usize;
            let sy1 = ((max_y * SS as f64 - 0.5).ceil().min(sh as f64 - 1.0)).max(-1.0) as isize;
            for sy in sy0..=sy1.max(0) as usize {
                if sy as isize > sy1 {
                    break;
                }
                for sx in sx0..=sx1.max(0) as usize {
                    if sx as isize > sx1 {
                        break;
                    }
                    let (x, y) = ((sx as f64 + 0.5) / SS as f64, (sy as f64 + 0.5) / SS as f64);
                    let edge = |a: [f64; 2], b: [f64; 2]| {
                        ((b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0])) / area
                    };
                    let l = [edge(p[1], p[2]), edge(p[2], p[0]), edge(p[0], p[1])];
                    if l.iter().any(|&k| k < 0.0) {
                        continue;
                    }
                    let mut src = [0f32; 4];
                    for (k, vert) in v.iter().enumerate() {
                        let c = vert.color.to_array();
                        for ch in 0..4 {
                            src[ch] += l[k] as f32 * f32::from(c[ch]) / 255.0;
                        }
                    }
                    if let Some(img) = tex {
                        let u = l[0] * v[0].uv.x as f64
                            + l[1] * v[1].uv.x as f64
                            + l[2] * v[2].uv.x as f64;
                        let vv = l[0] * v[0].uv.y as f64
                            + l[1] * v[1].uv.y as f64
                            + l[2] * v[2].uv.y as f64;
                        let texel = bilinear(img, u, vv);
                        for ch in 0..4 {
                            src[ch] *= texel[ch];
                        }
                    }
                    let dst = &mut samples[sy * sw + sx];
                    for ch in 0..4 {
                        dst[ch] = src[ch] + dst[ch] * (1.0 - src[3]);
                    }
                }
            }
        }
    }
    let mut out = vec![[0f32; 4]; w * h];
    for (i, px) in out.iter_mut().enumerate() {
        let (x, y) = (i % w, i / w);
        for j in 0..SS {
            for k in 0..SS {
                let s = samples[(y * SS + j) * sw + x * SS + k];
                for ch in 0..4 {
                    px[ch] += s[ch] / (SS * SS) as f32;
                }
            }
        }
    }
    out
}

/// Premultiplied texel at texture coordinates (u, v), clamped at the edges.
fn bilinear(img: &SpriteImage, u: f64, v: f64) -> [f32; 4] {
    let (w, h) = (img.width() as i64, img.height() as i64);
    let data = img.rgba_premultiplied();
    let (x, y) = (u * w as f64 - 0.5, v * h as f64 - 0.5);
    let (x0, y0) = (x.floor(), y.floor());
    let (fx, fy) = ((x - x0) as f32, (y - y0) as f32);
    let at = |xi: i64, yi: i64| {
        let (xi, yi) = (xi.clamp(0, w - 1), yi.clamp(0, h - 1));
        let o = ((yi * w + xi) * 4) as usize;
        [0, 1, 2, 3].map(|c| f32::from(data[o + c]) / 255.0)
    };
    let (x0, y0) = (x0 as i64, y0 as i64);
    let (a, b, c, d) = (at(x0, y0), at(x0 + 1, y0), at(x0, y0 + 1), at(x0 + 1, y0 + 1));
    [0, 1, 2, 3].map(|ch| {
        (a[ch] * (1.0 - fx) + b[ch] * fx) * (1.0 - fy) + (c[ch] * (1.0 - fx) + d[ch] * fx) * fy
    })
}

struct Agreement {
    mean: f64,
    share_off: f64,
}

fn agreement(
    script: &str,
    anim: Option<&str>,
    frame: usize,
    w: u32,
    h: u32,
    zoom: Option<f64>,
    bones: bool,
) -> Agreement {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(script);
    let text = std::fs::read_to_string(&path).expect("script");
    let comp = compile(&text);
    let arm = &comp.armature;
    let anim_id = anim.map(|n| arm.animation_by_name(n).expect("animation"));
    let time = anim_id.and_then(|a| arm.animation(a)).map_or(0.0, |a| a.frame_times()[frame]);
    let pose = skelpad::runtime::evaluate(arm, anim_id, Default::default(), time);
    let mut cache = RenderCache::new(path.parent().expect("folder"));
    let view = match zoom {
        Some(z) => View::centered(w, h, z),
        None => {
            let b = render::animation_bounds(
                arm,
                None,
                Default::default(),
                &DrawOptions::default(),
                &mut cache,
            )
            .expect("draws");
            View::fit(b, w, h, 4.0)
        }
    };
    // With contours: the CPU fills outline loops, the meshes ignore them.
    let list = render::build_draw_list(
        arm,
        &pose,
        &DrawOptions { pixels_per_unit: view.pixels_per_unit, bones, contours: true },
        &mut cache,
    );
    assert!(!list.items.is_empty(), "{script} draws something");

    let cpu = render::cpu::render(&list, &view, w, h, None).expect("cpu render");
    let mut textures = HashMap::new();
    let meshes = render::egui::to_epaint(&list, &view, &mut |img| {
        let id = TextureId::User(img.id);
        textures.entry(id).or_insert_with(|| {
            list.items
                .iter()
                .find_map(|i| i.texture.clone().filter(|t| t.id == img.id))
                .expect("texture of the list")
        });
        id
    });
    let mesh_pixels = raster_meshes(&meshes, w as usize, h as usize, &textures);

    let (mut sum, mut off) = (0f64, 0usize);
    for (i, px) in cpu.data().chunks_exact(4).enumerate() {
        let m = mesh_pixels[i];
        let mut worst = 0f64;
        for ch in 0..4 {
            let d = (f64::from(px[ch]) - f64::from(m[ch]) * 255.0).abs();
            sum += d;
            worst = worst.max(d);
        }
        if worst > 40.0 {
            off += 1;
        }
    }
    let n = (w * h) as f64;
    Agreement { mean: sum / (n * 4.0), share_off: off as f64 / n }
}

fn assert_agree(name: &str, a: Agreement) {
    eprintln!(
        "{name}: mean difference {:.3}/255, {:.3} % of pixels off by more than 40/255",
        a.mean,
        a.share_off * 100.0
    );
    assert!(a.mean < 0.75, "{name}: mean difference {:.3}/255", a.mean);
    assert!(a.share_off < 0.005, "{name}: {:.3} % of pixels differ", a.share_off * 100.0);
}

#[test]
fn examples_look_the_same_through_both_back_ends() {
    assert_agree(
        "walk_cycle",
        agreement("examples/walk_cycle.skel2d", Some("walk"), 7, 160, 160, None, true),
    );
    assert_agree(
        "tentacle",
        agreement("examples/tentacle.skel2d", Some("wave"), 12, 160, 160, None, false),
    );
    assert_agree(
        "draw_order",
        agreement("examples/draw_order.skel2d", Some("colors"), 10, 160, 160, None, false),
    );
    assert_agree("skins", agreement("examples/skins.skel2d", None, 0, 160, 160, None, false));
    assert_agree(
        "bouncing_ball",
        agreement("examples/bouncing_ball.skel2d", Some("bounce"), 5, 160, 160, None, false),
    );
}

#[test]
fn edge_cases_look_the_same_through_both_back_ends() {
    for case in ["shapes", "joins", "caps", "paths", "sprites"] {
        let a = agreement(
            &format!("tests/golden/cases/{case}.skel2d"),
            None,
            0,
            220,
            160,
            Some(1.0),
            false,
        );
        assert_agree(case, a);
    }
}

/// The comparison is not blind: a mesh drawn upside down (y not flipped)
/// is caught.
#[test]
fn a_wrong_mesh_is_caught() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/cases/shapes.skel2d");
    let comp = compile(&std::fs::read_to_string(&path).expect("script"));
    let pose = skelpad::runtime::evaluate(&comp.armature, None, Default::default(), 0.0);
    let mut cache = RenderCache::new(".");
    let view = View::centered(220, 160, 1.0);
    let list = render::build_draw_list(&comp.armature, &pose, &DrawOptions::default(), &mut cache);
    let cpu = render::cpu::render(&list, &view, 220, 160, None).expect("render");
    let flipped = View { origin_px: view.origin_px, pixels_per_unit: -1.0 };
    let meshes = render::egui::to_epaint(&list, &flipped, &mut |_| TextureId::default());
    let px = raster_meshes(&meshes, 220, 160, &HashMap::new());
    let off = cpu
        .data()
        .chunks_exact(4)
        .zip(&px)
        .filter(|(c, m)| (f64::from(c[3]) - f64::from(m[3]) * 255.0).abs() > 40.0)
        .count();
    assert!(off as f64 / (220.0 * 160.0) > 0.01, "{off} pixels differ");
}
