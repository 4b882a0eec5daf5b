//! Deterministic synthetic scripts for benchmarks and tests: many bones, one
//! shape per bone, and animations that use loops, steps and easings.

use std::fmt::Write;

/// A small deterministic generator (xorshift), so scripts are the same on
/// every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// Name of bone `i` of a generated rig: bones hang in chains of up to eight,
/// so names are dotted paths like `b0.b1.b2`.
fn bone_path(i: usize, chain: usize) -> String {
    let start = i - i % chain;
    (start..=i).map(|k| format!("b{k}")).collect::<Vec<_>>().join(".")
}

/// A script with `bones` bones (chains of eight), one shape per bone, and
/// `anims` animations each animating about 30% of the bones with loops,
/// steps and easings.
pub fn script(bones: usize, anims: usize) -> String {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let chain = 8;
    let mut s = String::with_capacity(bones * 120);
    s.push_str("# generated rig\nskeleton #FC0\n");
    for i in 0..bones {
        let path = bone_path(i, chain);
        let (x, y, r) = (rng.below(40) as i64 - 20, rng.below(40) as i64 - 20, rng.below(90) as i64 - 45);
        let _ = writeln!(s, "\t{path} l{} x{x} y{y} r{r}", 10 + rng.below(30));
        let shape = match i % 4 {
            0 => format!(":rect w{} h{} d4 t1 f#{:03X} s#000", 8 + rng.below(20), 4 + rng.below(10), rng.below(0xFFF)),
            1 => format!(":circle d{} t2 f#{:03X}", 6 + rng.below(20), rng.below(0xFFF)),
            2 => format!(":ellipse w{} h{} t0 f#{:03X},0.8", 8 + rng.below(20), 4 + rng.below(10), rng.below(0xFFF)),
            _ => format!(":rect w{} h{} t0 f#{:03X} x5", 8 + rng.below(20), 4 + rng.below(10), rng.below(0xFFF)),
        };
        let _ = writeln!(s, "\t\t@ {shape}");
    }
    let easings = ["li", "si", "so", "sio"];
    for a in 0..anims {
        let _ = writeln!(s, "\nanim \"anim{a}\" 24fps 0:6:li");
        for i in (0..bones).filter(|i| (i * 7 + a * 3) % 10 < 3) {
            let name = format!("b{i}");
            let e = easings[(i + a) % 4];
            match (i + a) % 3 {
                0 => {
                    let _ = writeln!(s, "\t{name} :4:{e}");
                    let _ = writeln!(s, "\t\tr 0 {{ -> {} -> 0 }}[3]", rng.below(60) as i64 - 30);
                }
                1 => {
                    let _ = writeln!(s, "\t{name}");
                    let _ = writeln!(s, "\t\tx 0 :{e}-> {} --> +-5 ->", rng.below(20));
                    let _ = writeln!(s, "\t\ti 1 :8:> 1.2 -> *0.9");
                }
                _ => {
                    let _ = writeln!(s, "\t{name} 2::{e}");
                    let _ = writeln!(s, "\t\ty 0 -> {} -> 0", rng.below(10));
                    let _ = writeln!(s, "\t\tj 1 +6:> 0.8 +6:> 1");
                }
            }
        }
    }
    s
}

/// The worst script the compiler accepts without an error that we could
/// think of for the editor: 5000 bones with a shape each, two generated
/// animations, and an animation as long as the language allows (a key on
/// frame `MAX_KEY_FRAME`, at 1 fps: eleven days) that moves every bone.
pub fn worst_script() -> String {
    let bones = 5000;
    let mut s = script(bones, 2);
    let last = crate::model::MAX_KEY_FRAME as u64;
    let _ = writeln!(s, "\nanim \"longest\" 1fps");
    for i in (0..bones).step_by(8) {
        let _ = writeln!(s, "\tb{i}");
        let _ = writeln!(s, "\t\tr 0 -> 30 {last}:> -30");
    }
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn generated_scripts_are_clean_and_have_the_asked_size() {
        let comp = crate::compile::compile(&super::script(100, 10));
        assert!(comp.diagnostics.is_empty(), "{:?}", comp.diagnostics.first());
        let arm = &comp.armature;
        assert_eq!(arm.skeleton.bones.len(), 100);
        assert_eq!(arm.skeleton.slots.len(), 100);
        assert_eq!(arm.animations.len(), 10);
        // About 30% of the bones are animated in each animation.
        let animated = arm.animations[0].bones.iter().map(|c| c.bone).collect::<std::collections::HashSet<_>>().len();
        assert!((25..=35).contains(&animated), "{animated}");
        assert!(arm.animations.iter().all(|a| a.duration_secs > 0.0));
    }

    #[test]
    fn the_worst_script_compiles_cleanly_to_the_longest_animation() {
        let comp = crate::compile::compile(&super::worst_script());
        assert!(comp.diagnostics.is_empty(), "{:?}", comp.diagnostics.first());
        let arm = &comp.armature;
        assert_eq!(arm.skeleton.bones.len(), 5000);
        let a = &arm.animations[arm.animation_by_name("longest").expect("the long one").index()];
        assert_eq!(a.duration_secs * a.fps, crate::model::MAX_KEY_FRAME);
    }
}
