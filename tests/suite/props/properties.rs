//! The properties themselves: random scripts, edits and poses checked
//! against the invariants (the generators are in the parent module).

use super::*;

// ---- (a) arbitrary text ----------------------------------------------------------

proptest! {
    #![proptest_config(cases(1000))]

    #[test]
    fn arbitrary_script_like_text_never_panics(text in atom_text()) {
        exercise(&text)?;
    }

    #[test]
    fn arbitrary_unicode_text_never_panics(text in "(?s).{0,200}") {
        exercise(&text)?;
    }
}

#[test]
fn tricky_inputs_never_panic() {
    let inputs = [
        "",
        "\n",
        "\r",
        "\r\n",
        "\\",
        "\\\n",
        "\\\r\n",
        "\t",
        "\t\\",
        "#",
        "# \\\n",
        "skeleton\\",
        "skeleton\n\t\\",
        "skeleton\n\t\t\t\\\n\\",
        "\u{feff}skeleton\n\thip",
        "skeleton\n\t\u{a0}hip",
        "skeleton\n\thip\u{2028}x1",
        "anim\n\t\t",
        "anim \"\"\n\thip\n\t\tx",
        "skin \"\n",
        "skin \"\"\"\n\t@",
        "order\n\t@\n\t@.",
        "skeleton\n\t.\n\ta..b\n\t-\n\t_",
        "skeleton\n\thip\n\t\t@[\n\t\t@[]\n\t\t@a[b",
        "skeleton\n\thip\n\t\t@ :path\n\t\t\t:\n\t\t\t: \n\t\t\tC\n\t\t\tC",
        "anim\n\thip\n\t\tx }[99999999999999999999999]",
        "anim\n\thip\n\t\tx 0 +1::> +99999999999999999999::> 1",
        "skeleton\n\thip\nanim\n\thip\n\t\tx 0 :0:> { -> 1 }[5]",
        "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t",
    ];
    for text in inputs {
        let r = exercise(text);
        assert!(r.is_ok(), "{text:?}: {r:?}");
    }
}

// ---- (e) section split ------------------------------------------------------------

/// Sections by the definition (LANGUAGE.md §1.5): a section starts at each
/// non-blank logical line that does not begin with a tab; indented lines
/// before the first one form a section of their own.
fn reference_sections(text: &str) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut current: Option<u32> = None;
    for line in skelpad::syntax::lines::LogicalLines::new(text) {
        if line.is_blank() {
            continue;
        }
        if !line.text.starts_with('\t') || current.is_none() {
            if let Some(s) = current {
                out.push((s, line.start));
            }
            current = Some(line.start);
        }
    }
    if let Some(s) = current {
        out.push((s, text.len() as u32));
    }
    out
}

fn continuation_heavy_text() -> impl Strategy<Value = String> {
    let piece = select(
        &[
            "\\", "\\\n", "\\\r\n", "\n", "\r\n", "\r", "\t", " ", "#", "# ", "a", "skeleton",
            "\u{a0}", "é",
        ][..],
    );
    prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(cases(1000))]

    #[test]
    fn sections_split_where_the_language_says(text in prop_oneof![atom_text(), continuation_heavy_text()]) {
        let got: Vec<(u32, u32)> = skelpad::syntax::split_sections(&text).iter().map(|s| (s.start, s.end)).collect();
        prop_assert_eq!(got, reference_sections(&text), "text: {:?}", text);
    }
}

// ---- (b) mutated conformance scripts ---------------------------------------------

proptest! {
    #![proptest_config(cases(1000))]

    #[test]
    fn mutated_conformance_scripts_never_panic(
        which in any::<usize>(),
        edits in prop::collection::vec(edit(), 1..10),
    ) {
        let (name, original) = &scripts()[which % scripts().len()];
        let mut text = original.clone();
        for e in &edits {
            text = apply(&text, e);
        }
        let c = exercise(&text).map_err(|e| TestCaseError::fail(format!("{name} after {edits:?}: {e}")))?;
        check_finite(&c.armature)?;
    }
}

#[test]
fn conformance_scripts_compile_and_pose() {
    for (name, text) in scripts() {
        let c = exercise(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        check_finite(&c.armature).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

// ---- (c) incremental = from scratch --------------------------------------------------

/// Everything observable about a compilation: diagnostics, the model, and
/// the poses in every skin.
fn observe(
    c: &Compilation,
) -> (Vec<skelpad::syntax::Diagnostic>, String, Vec<serde_json::Value>, String) {
    let arm = &c.armature;
    let anims: Vec<AnimId> = (0..arm.animations.len()).map(AnimId::from_index).collect();
    let mut poses = Vec::new();
    for skin in 0..arm.skeleton.skins.len() {
        let skin = SkinId::from_index(skin);
        poses.push(skelpad::runtime::report::pose_document(
            arm,
            &anims,
            skin,
            Some(&[0.0, 0.05, 0.3, 1.0]),
        ));
        poses.push(skelpad::runtime::report::pose_json(arm, &evaluate(arm, None, skin, 0.0)));
    }
    (c.diagnostics.clone(), format!("{arm:?}"), poses, format!("{:?} {:?}", c.sources, c.lines))
}

#[derive(Clone, Debug)]
enum Step {
    Edit(Edit),
    /// Go back to an earlier version of the text (exercises cache hits).
    Revert(usize),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![6 => edit().prop_map(Step::Edit), 1 => any::<usize>().prop_map(Step::Revert)]
}

proptest! {
    #![proptest_config(cases(500))]

    #[test]
    fn incremental_compilation_equals_compiling_from_scratch(
        which in any::<usize>(),
        steps in prop::collection::vec(step(), 1..10),
    ) {
        let (name, original) = &scripts()[which % scripts().len()];
        let mut compiler = Compiler::new();
        let mut history = vec![original.clone()];
        let first = compiler.update(original);
        prop_assert!(observe(&first) == observe(&compile(original)), "{name}: first update differs");
        for (i, s) in steps.iter().enumerate() {
            let text = match s {
                Step::Edit(e) => apply(history.last().map_or("", |t| t.as_str()), e),
                Step::Revert(k) => history[k % history.len()].clone(),
            };
            let inc = compiler.update(&text);
            let fresh = compile(&text);
            let (a, b) = (observe(&inc), observe(&fresh));
            prop_assert!(a.0 == b.0, "{name}, step {i} ({s:?}): diagnostics differ\nincremental: {:#?}\nfresh: {:#?}", a.0, b.0);
            prop_assert!(a.1 == b.1, "{name}, step {i} ({s:?}): armatures differ");
            prop_assert!(a.2 == b.2, "{name}, step {i} ({s:?}): poses differ");
            prop_assert!(a.3 == b.3, "{name}, step {i} ({s:?}): source maps differ");
            history.push(text);
        }
    }
}

#[test]
fn editing_one_animation_recompiles_only_it() {
    let base =
        "skeleton\n\thip\nanim \"a\"\n\thip\n\t\tx 0 -> 1\nanim \"b\"\n\thip\n\t\ty 0 -> 1\n";
    let mut compiler = Compiler::new();
    compiler.update(base);
    let edited = base.replace("y 0 -> 1", "y 0 -> 2");
    let inc = compiler.update(&edited);
    assert_eq!(compiler.last_parsed_sections, 1);
    assert_eq!(compiler.last_compiled_units, 1);
    assert_eq!(observe(&inc), observe(&compile(&edited)));
    // No change: nothing is redone.
    compiler.update(&edited);
    assert_eq!((compiler.last_parsed_sections, compiler.last_compiled_units), (0, 0));
}

// ---- (d) finite matrices ---------------------------------------------------------------

fn num(range: std::ops::Range<i32>) -> impl Strategy<Value = String> {
    prop_oneof![
        3 => range.clone().prop_map(|v| v.to_string()),
        2 => (range, 0..1000u32).prop_map(|(v, f)| format!("{v}.{f:03}")),
        1 => Just("0".to_string()),
        1 => Just("-0".to_string()),
    ]
}

/// A scale: often zero, sometimes negative or tiny.
fn scale() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => Just("0".to_string()),
        1 => Just("-1".to_string()),
        1 => Just("0.001".to_string()),
        2 => num(-5..6),
    ]
}

fn bone_line(i: usize) -> impl Strategy<Value = String> {
    (
        any::<usize>(),
        prop::option::of(num(-1000..1000)),
        prop::option::of(num(-1000..1000)),
        prop::option::of(num(-1080..1080)),
        prop::option::of(scale()),
        prop::option::of(scale()),
        prop::collection::vec(select(&["flip-x", "flip-y", "no-rot", "no-scale"][..]), 0..3),
    )
        .prop_map(move |(parent, x, y, r, si, sj, flags)| {
            // Bone i hangs below bone parent % i (or is a root).
            let parent = if i == 0 { None } else { Some(parent % (i + 1)).filter(|&p| p < i) };
            let mut line =
                format!("\t{}", parent.map_or(format!("b{i}"), |p| format!("b{p}.b{i}")));
            for (letter, v) in [("x", x), ("y", y), ("r", r), ("i", si), ("j", sj)] {
                if let Some(v) = v {
                    line.push_str(&format!(" {letter}{v}"));
                }
            }
            for f in flags {
                line.push(' ');
                line.push_str(f);
            }
            line
        })
}

fn timeline() -> impl Strategy<Value = String> {
    let value = prop_oneof![
        3 => num(-720..720),
        1 => scale(),
        1 => Just("*0".to_string()),
        1 => num(0..50).prop_map(|v| format!("+{v}")),
        1 => Just("{".to_string()),
        1 => Just("}[2]".to_string()),
        1 => Just("}[0]".to_string()),
    ];
    let sep = select(&[" -> ", " --> ", " > ", " :si-> ", " +3::so> ", " 0:0:> ", " "][..]);
    (select(&["x", "y", "r", "i", "j"][..]), prop::collection::vec((value, sep), 1..6)).prop_map(
        |(prop, cmds)| {
            let body: String = cmds.into_iter().map(|(v, s)| format!("{v}{s}")).collect();
            format!("\t\t{prop} {body}")
        },
    )
}

fn rig_script() -> impl Strategy<Value = String> {
    (1..8usize)
        .prop_flat_map(|n| {
            let bones: Vec<_> = (0..n).map(bone_line).collect();
            let items =
                prop::collection::vec((0..n, prop::collection::vec(timeline(), 1..3)), 0..4);
            let flips = prop::collection::vec((0..n, any::<bool>()), 0..2);
            (bones, items, flips)
        })
        .prop_map(|(bones, items, flips)| {
            let mut s = String::from("skeleton\n");
            for b in &bones {
                s.push_str(b);
                s.push_str("\n\t\t@ :rect w4 h4\n");
            }
            s.push_str("anim \"a\" 0:3:sio\n");
            for (bone, tls) in items {
                s.push_str(&format!("\tb{bone}\n"));
                for t in tls {
                    s.push_str(&t);
                    s.push('\n');
                }
            }
            for (bone, v) in flips {
                s.push_str(&format!("\tb{bone}\n\t\ts false -> {v} -> false\n\t\tt {v}\n"));
            }
            s
        })
}

proptest! {
    #![proptest_config(cases(500))]

    #[test]
    fn pose_matrices_are_finite(text in rig_script()) {
        let c = compile(&text);
        check_spans(&text, &c)?;
        check_finite(&c.armature)?;
        // And at many times across the animation.
        for (i, a) in c.armature.animations.iter().enumerate() {
            for k in 0..=20 {
                let t = a.duration_secs * f64::from(k) / 20.0;
                let pose = evaluate(&c.armature, Some(AnimId::from_index(i)), SkinId(0), t);
                prop_assert!(pose.bones.iter().all(|b| b.world.is_finite()), "t = {t}: {:?}\n{text}", pose.bones);
            }
        }
    }
}

proptest! {
    #![proptest_config(cases(300))]

    /// A pose reused across evaluations (as the editor does every frame)
    /// gives what a fresh pose gives.
    #[test]
    fn reusing_a_pose_changes_nothing(text in rig_script(), times in prop::collection::vec(0.0..2.0f64, 1..8)) {
        let c = compile(&text);
        let arm = &c.armature;
        let mut reused = skelpad::runtime::Pose::default();
        for (k, t) in times.iter().enumerate() {
            // Alternate between the setup pose and the animation.
            let anim = if k % 3 == 2 { None } else { arm.animations.first().map(|a| &**a) };
            skelpad::runtime::evaluate_into(&mut reused, arm, anim, SkinId(0), *t);
            let fresh = evaluate(arm, anim.map(|_| AnimId(0)), SkinId(0), *t);
            prop_assert!(reused == fresh, "t = {t}\n{text}");
        }
    }
}

#[test]

fn overflowing_number_literals_keep_matrices_finite() {
    let big = "9".repeat(400);
    let text = format!(
        "skeleton\n\thip x{big}\n\thip.arm r{big} i{big}\nanim \"a\"\n\thip\n\t\ty 0 -> {big}\n"
    );
    let c = compile(&text);
    let finite = check_finite(&c.armature);
    assert!(finite.is_ok() || c.has_errors(), "non-finite pose without any diagnostic: {finite:?}");
}

// ---- (f) a reused pose is a fresh pose -------------------------------------------

/// The armatures (f) plays: every conformance script and a generated rig
/// with flips, long chains, several slots and relative values.
fn armatures() -> &'static [Armature] {
    static ARMS: OnceLock<Vec<Armature>> = OnceLock::new();
    ARMS.get_or_init(|| {
        let style = skelpad::generate::style("everything").unwrap();
        let mut texts: Vec<String> = scripts().iter().map(|(_, t)| t.clone()).collect();
        texts.push(skelpad::generate::styled(&style, 60, 4));
        texts.push(skelpad::generate::script(40, 3));
        texts.iter().map(|t| compile(t).armature).filter(|a| !a.animations.is_empty()).collect()
    })
}

proptest! {
    #![proptest_config(cases(200))]

    /// `evaluate_into` keeps caches in the pose (sine/cosine per bone, a key
    /// cursor per channel, locals reset lazily): whatever it was asked
    /// before, the pose it gives equals a fresh evaluation, bit for bit.
    #[test]
    fn a_reused_pose_equals_a_fresh_one(
        first in any::<prop::sample::Index>(),
        asks in prop::collection::vec(
            (0u8..4, any::<prop::sample::Index>(), any::<prop::sample::Index>(), -0.5f64..8.0, any::<bool>()),
            1..24,
        ),
    ) {
        // Mostly one armature, sometimes another (a recompile in the editor).
        let mut pose = skelpad::runtime::Pose::default();
        let mut arm = first.get(armatures());
        for (switch, which, anim, t, setup) in asks {
            if switch == 0 {
                arm = which.get(armatures());
            }
            let id = (!setup).then(|| AnimId(anim.index(arm.animations.len()) as u32));
            let anim = id.and_then(|a| arm.animation(a));
            skelpad::runtime::evaluate_into(&mut pose, arm, anim, SkinId(0), t);
            let fresh = evaluate(arm, id, SkinId(0), t);
            prop_assert!(pose == fresh, "anim {id:?} at {t}");
            for (a, b) in pose.bones.iter().zip(&fresh.bones) {
                prop_assert_eq!(
                    a.world.to_array().map(f64::to_bits),
                    b.world.to_array().map(f64::to_bits)
                );
            }
        }
    }
}
