//! What a player must draw at every whole and half frame of a Lottie export
//! (players draw between frames): each bone layer's world matrix within
//! [`WHOLE`] units of skelpad's pose at a whole frame, and within
//! [`HALF`] units plus [`MOVE_SHARE`] of the bone's own movement over that
//! frame at a half frame (a straight in-between of two baked keys passes, a
//! pose held for a frame does not); an attachment skelpad switches between
//! two frames is shown or hidden whole at the half frame between (no
//! cross-fade). The times run through each animation's closing frame, so
//! the loop's seam (the half frame before it) is checked the same way; the
//! file's out point itself is never drawn.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use std::path::Path;

use skelpad::formats::lottie::{Lottie, to_bytes};
use skelpad::model::{Affine, Armature, SkinId};
use skelpad::runtime::evaluate;

/// Largest error at a whole frame, in skelpad's units (the sine fit's
/// 0.01 units; exact keys land within rounding, 1e-4).
pub const WHOLE: f64 = 0.01;
/// Largest error at a half frame beyond the bone's share of movement.
pub const HALF: f64 = 0.01;
/// The share of a bone's own movement over a frame a half frame may miss.
pub const MOVE_SHARE: f64 = 0.3;

/// One animation on the file's timeline (a marker with a length).
pub struct Span {
    /// The animation's name.
    pub name: String,
    /// Its first frame.
    pub tm: f64,
    /// Its frames (its closing frame is `tm + dr`).
    pub dr: f64,
}

/// skelpad's side: each bone layer's world matrix at any time of the file.
pub struct Truth<'a> {
    pub arm: &'a Armature,
    pub skin: SkinId,
    pub view: Affine,
    pub fps: f64,
    pub spans: Vec<Span>,
    /// The file's out point.
    pub op: f64,
}

/// A time a player is asked for: its span, and half frames from the span's
/// first frame.
#[derive(Clone, Copy)]
pub struct At {
    pub span: usize,
    pub halves: usize,
}

impl<'a> Truth<'a> {
    pub fn new(arm: &'a Armature, lottie: &Lottie, skin: SkinId) -> Truth<'a> {
        let doc = &lottie.json;
        let spans = doc["markers"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["dr"].as_f64().unwrap() > 0.0)
            .map(|m| Span {
                name: m["cm"].as_str().unwrap().to_string(),
                tm: m["tm"].as_f64().unwrap(),
                dr: m["dr"].as_f64().unwrap(),
            })
            .collect();
        let [a, b, c, d, e, f] = lottie.view;
        Truth {
            arm,
            skin,
            view: Affine::from_array([a, b, c, d, e, f]),
            fps: doc["fr"].as_f64().unwrap(),
            spans,
            op: doc["op"].as_f64().unwrap(),
        }
    }

    /// Every whole and half frame of every animation through its closing
    /// frame, the out point left out.
    pub fn times(&self) -> Vec<At> {
        let mut out = Vec::new();
        for (span, s) in self.spans.iter().enumerate() {
            for halves in 0..=(2.0 * s.dr) as usize {
                let at = At { span, halves };
                if self.frame(at) < self.op {
                    out.push(at);
                }
            }
        }
        out
    }

    /// The file frame of a time.
    pub fn frame(&self, at: At) -> f64 {
        self.spans[at.span].tm + at.halves as f64 / 2.0
    }

    /// skelpad's pose at a time (as its runtime plays it: the animation's
    /// time, up to its end).
    pub fn pose(&self, at: At) -> skelpad::runtime::Pose {
        let anim = self.arm.animation_by_name(&self.spans[at.span].name);
        let end = anim.and_then(|a| self.arm.animation(a)).map_or(0.0, |a| a.duration_secs);
        let secs = (at.halves as f64 / 2.0 / self.fps).min(end);
        evaluate(self.arm, anim, self.skin, secs)
    }

    /// Expected bone layer matrices at a time.
    pub fn bones(&self, at: At) -> Vec<Affine> {
        let c = Affine::scale(1.0, -1.0);
        self.pose(at).bones.iter().map(|p| self.view * p.world * c).collect()
    }

    /// The error, in skelpad's world units, of a player's matrix.
    pub fn error(&self, got: [f64; 6], want: Affine) -> f64 {
        let ppu = self.view.to_array()[0].abs().max(1e-12);
        let w = want.to_array();
        got.iter().zip(&w).map(|(g, w)| (g - w).abs() / ppu).fold(0.0, f64::max)
    }
}

/// The worst errors a player showed.
#[derive(Default, Debug, Clone, Copy)]
pub struct Worst {
    /// At whole frames (units).
    pub whole: f64,
    /// At half frames (units).
    pub half: f64,
    /// At half frames, as a share of the allowed error.
    pub share: f64,
}

/// Checks a player's bone matrices (`got[time][bone]`, at `truth.times()`).
pub fn check_bones(name: &str, player: &str, truth: &Truth<'_>, got: &[Vec<[f64; 6]>]) -> Worst {
    let times = truth.times();
    assert_eq!(got.len(), times.len(), "{name}: {player} played every time");
    let want: Vec<Vec<Affine>> = times.iter().map(|&at| truth.bones(at)).collect();
    let bones = &truth.arm.skeleton.bones;
    let mut worst = Worst::default();
    let mut misses = Vec::new();
    for (i, &at) in times.iter().enumerate() {
        for (b, bone) in bones.iter().enumerate() {
            let e = truth.error(got[i][b], want[i][b]);
            let f = truth.frame(at);
            if at.halves % 2 == 0 {
                if e > WHOLE {
                    misses.push(format!("bone `{}` at frame {f}: off by {e}", bone.name));
                }
                worst.whole = worst.whole.max(e);
            } else {
                // The whole frames before and after (the one after may be
                // the out point, which is not in `times`).
                let after = match want.get(i + 1) {
                    Some(w) if times[i + 1].span == at.span => w[b],
                    _ => truth.bones(At { halves: at.halves + 1, ..at })[b],
                };
                let moved = truth.error(after.to_array(), want[i - 1][b]);
                let limit = HALF + MOVE_SHARE * moved;
                if e > limit {
                    misses.push(format!(
                        "bone `{}` at frame {f}: off by {e} (allowed {limit}: it moves {moved} over the frame)",
                        bone.name
                    ));
                }
                worst.half = worst.half.max(e);
                worst.share = worst.share.max(e / limit);
            }
        }
    }
    assert!(
        misses.is_empty(),
        "{name}: {player} misses skelpad's pose {} time(s):\n  {}",
        misses.len(),
        misses.iter().take(12).cloned().collect::<Vec<_>>().join("\n  ")
    );
    worst
}

/// Checks that every attachment skelpad switches between two frames is
/// shown or hidden whole by the player at the half frame between:
/// `opacity[time][layer]` of the layers named by `names` (attachment full
/// names, `None` for other layers). Returns how many switches it checked.
pub fn check_switches(
    name: &str,
    player: &str,
    truth: &Truth<'_>,
    names: &[Option<String>],
    opacity: &[Vec<f64>],
    shown: &dyn Fn(&skelpad::runtime::Pose) -> Vec<String>,
) -> usize {
    let times = truth.times();
    let seen: Vec<Vec<String>> = times.iter().map(|&at| shown(&truth.pose(at))).collect();
    let mut checked = 0;
    for (i, &at) in times.iter().enumerate() {
        if at.halves % 2 == 0 {
            continue;
        }
        let next = match seen.get(i + 1) {
            Some(s) if times[i + 1].span == at.span => s.clone(),
            _ => shown(&truth.pose(At { halves: at.halves + 1, ..at })),
        };
        for (l, n) in names.iter().enumerate() {
            let Some(n) = n else { continue };
            let (before, after) = (seen[i - 1].contains(n), next.contains(n));
            if before == after {
                continue;
            }
            let (o0, oh) = (opacity[i - 1][l], opacity[i][l]);
            assert!(
                (oh - o0).abs() <= 1e-9 * o0.abs().max(1.0),
                "{name}: `{n}` switches {} after frame {}: {player} shows it at {oh} at the half frame (at {o0} before)",
                if after { "on" } else { "off" },
                truth.frame(at) - 0.5
            );
            checked += 1;
        }
    }
    checked
}

/// Plays the file in velato at every time: bone layer world matrices and
/// every layer's opacity.
pub fn velato_play(
    name: &str,
    truth: &Truth<'_>,
    lottie: &Lottie,
) -> (Vec<Vec<[f64; 6]>>, Vec<Vec<f64>>) {
    let text = String::from_utf8(to_bytes(&lottie.json).unwrap()).unwrap();
    let comp: velato::Composition =
        text.parse().unwrap_or_else(|e| panic!("{name}: velato cannot load the export: {e}"));
    let layers = lottie.json["layers"].as_array().unwrap();
    assert_eq!(comp.layers.len(), layers.len(), "{name}: velato read every layer");
    // The bone layers are the last ones, in bone order (names may repeat
    // in imported files, so they are found by place and checked by name).
    let bones = &truth.arm.skeleton.bones;
    let first = layers.len() - bones.len();
    for (i, b) in bones.iter().enumerate() {
        let l = &layers[first + i];
        assert!(
            l["ty"] == 3 && l["nm"] == b.name.as_str() && comp.layers[first + i].name == b.name,
            "{name}: no layer for bone `{}`",
            b.name
        );
    }
    let mut mats = Vec::new();
    let mut opacity = Vec::new();
    for at in truth.times() {
        let f = truth.frame(at);
        let mut row = Vec::with_capacity(bones.len());
        for layer in first..layers.len() {
            let mut world = comp.layers[layer].transform.evaluate(f).into_owned();
            let mut parent = comp.layers[layer].parent;
            let mut depth = 0;
            while let Some(p) = parent {
                world = comp.layers[p].transform.evaluate(f).into_owned() * world;
                parent = comp.layers[p].parent;
                depth += 1;
                assert!(depth < 10_000, "{name}: parent loop");
            }
            row.push(world.as_coeffs());
        }
        mats.push(row);
        opacity.push(comp.layers.iter().map(|l| l.opacity.evaluate(f) / 100.0).collect());
    }
    (mats, opacity)
}

/// Plays the file in lottie-web (under node, `tests/lottie-web/play.js`) at
/// every time: bone layer world matrices and every layer's opacity.
pub fn lottie_web_play(
    dir: &Path,
    name: &str,
    truth: &Truth<'_>,
    lottie: &Lottie,
) -> (Vec<Vec<[f64; 6]>>, Vec<Vec<f64>>) {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("anim.json");
    std::fs::write(&file, to_bytes(&lottie.json).unwrap()).unwrap();
    let times: Vec<f64> = truth.times().into_iter().map(|at| truth.frame(at)).collect();
    let times_file = tmp.path().join("times.json");
    std::fs::write(&times_file, serde_json::to_vec(&times).unwrap()).unwrap();
    let out = std::process::Command::new("node")
        .arg(crate::lottie::manifest().join("tests/lottie-web/play.js"))
        .arg(&file)
        .arg(&times_file)
        .env("SKELPAD_LOTTIE_WEB_DIR", dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
    let played: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // The bone layers are the last ones (null and image layers come first).
    let bones = truth.arm.skeleton.bones.len();
    let first = lottie.json["layers"].as_array().unwrap().len() - bones;
    let indices = played["layers"].as_array().unwrap();
    let skip = indices.iter().take_while(|i| (i.as_u64().unwrap() as usize) < first).count();
    assert_eq!(indices.len() - skip, bones, "{name}");
    let nums = |v: &serde_json::Value| -> Vec<f64> {
        v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect()
    };
    let mats = played["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|layers| {
            layers.as_array().unwrap()[skip..]
                .iter()
                .map(|m| {
                    let g = nums(m);
                    [g[0], g[1], g[2], g[3], g[4], g[5]]
                })
                .collect()
        })
        .collect();
    let opacity = played["opacity"].as_array().unwrap().iter().map(nums).collect();
    (mats, opacity)
}

/// The attachment each layer of the file draws (its full name; a
/// draw-order copy `SLOT_zN` named as its slot, a stroke layer as its
/// shape), `None` for bone, mesh-triangle and other layers.
pub fn layer_attachments(arm: &Armature, doc: &serde_json::Value) -> Vec<Option<String>> {
    let sk = &*arm.skeleton;
    let known: std::collections::HashSet<String> = (0..sk.attachments.len())
        .map(|i| sk.attachment_full_name(skelpad::model::AttachmentId::from_index(i)))
        .collect();
    doc["layers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            if l["ty"] == 3 {
                return None;
            }
            let n = l["nm"].as_str()?;
            let n = crate::lottie::uncopied(n.strip_suffix(" (stroke)").unwrap_or(n));
            known.contains(&n).then_some(n)
        })
        .collect()
}
