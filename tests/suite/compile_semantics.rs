//! Assertions on the compiled model for recovery behaviours that must match
//! the original tool (LANGUAGE.md §1.6 and the rules of §2–5): what an input
//! with mistakes compiles to, not only what it reports.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use skelpad::compile::{Compilation, compile};
use skelpad::model::*;
use skelpad::runtime::evaluate;
use skelpad::syntax::Severity;

const EPS: f64 = 1e-9;

fn compiled(text: &str) -> Compilation {
    compile(text)
}

fn messages(c: &Compilation) -> Vec<String> {
    c.diagnostics.iter().map(|d| format!("{}: {}", d.severity, d.message)).collect()
}

fn assert_clean(c: &Compilation) {
    assert!(c.diagnostics.is_empty(), "unexpected diagnostics: {:#?}", messages(c));
}

fn bone_names(c: &Compilation) -> Vec<&str> {
    c.armature.skeleton.bones.iter().map(|b| b.name.as_str()).collect()
}

fn slot_names(c: &Compilation) -> Vec<&str> {
    c.armature.skeleton.slots.iter().map(|s| s.name.as_str()).collect()
}

fn draw_order(c: &Compilation) -> Vec<&str> {
    let sk = &c.armature.skeleton;
    sk.draw_order.iter().map(|s| sk.slot(*s).name.as_str()).collect()
}

fn bone_id(c: &Compilation, name: &str) -> BoneId {
    c.armature
        .skeleton
        .bone_by_name(name)
        .unwrap_or_else(|| panic!("no bone `{name}` in {:?}", bone_names(c)))
}

fn slot_id(c: &Compilation, name: &str) -> SlotId {
    c.armature
        .skeleton
        .slot_by_name(name)
        .unwrap_or_else(|| panic!("no slot `{name}` in {:?}", slot_names(c)))
}

fn anim<'a>(c: &'a Compilation, name: &str) -> (AnimId, &'a Animation) {
    let id = c.armature.animation_by_name(name).unwrap_or_else(|| panic!("no animation `{name}`"));
    (id, c.armature.animation(id).expect("valid id"))
}

/// The attachment `slot.att` as `skin` shows it.
fn attachment<'a>(c: &'a Compilation, skin: &str, slot: &str, att: &str) -> &'a Attachment {
    let sk = &c.armature.skeleton;
    let skin_id = sk.skin_by_name(skin).unwrap_or_else(|| panic!("no skin `{skin}`"));
    let att_id = sk
        .find_attachment(slot_id(c, slot), att)
        .unwrap_or_else(|| panic!("no attachment `{att}` in `{slot}`"));
    sk.attachment(skin_id, att_id).expect("every skin lists every attachment")
}

fn path_of(a: &Attachment) -> &BoundPath {
    match &a.kind {
        AttachmentKind::Path { path, .. } => path,
        other => panic!("not a path: {other:?}"),
    }
}

fn key_pairs(keys: &[Key<f64>]) -> Vec<(f64, f64)> {
    keys.iter().map(|k| (k.time_secs, k.value)).collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= EPS * b.abs().max(1.0)
}

fn assert_keys(keys: &[Key<f64>], want: &[(f64, f64)]) {
    let got = key_pairs(keys);
    assert_eq!(got.len(), want.len(), "keys {got:?}, want {want:?}");
    for (g, w) in got.iter().zip(want) {
        assert!(close(g.0, w.0) && close(g.1, w.1), "keys {got:?}, want {want:?}");
    }
}

// ---- order -------------------------------------------------------------

const TWO_SLOTS: &str = "skeleton\n\ta\n\t\t@ :rect w1 h1\n\tb\n\t\t@ :rect w1 h1\n";

#[test]
fn order_entry_with_tab_and_comment_is_applied() {
    let c = compiled(&format!("{TWO_SLOTS}order\n\t@b\t# drawn at the back\n"));
    assert_clean(&c);
    assert_eq!(draw_order(&c), ["b.b", "a.a"]);
}

#[test]
fn order_entry_with_tab_and_other_text_is_not_applied() {
    let c = compiled(&format!("{TWO_SLOTS}order\n\t@b\textra\n"));
    assert!(c.has_errors(), "the dropped entry is reported");
    assert_eq!(draw_order(&c), ["a.a", "b.b"], "the entry must be dropped, as in the original");
}

#[test]
fn order_entry_with_space_and_other_text_is_applied() {
    let c = compiled(&format!("{TWO_SLOTS}order\n\t@b extra\n"));
    assert!(c.has_errors(), "the extra text is reported");
    assert_eq!(draw_order(&c), ["b.b", "a.a"]);
}

#[test]
fn order_skips_unknown_ambiguous_and_repeated_entries() {
    let text = "skeleton\n\tx.s\n\t\t@ :rect\n\ty.s\n\t\t@ :rect\n\tz\n\t\t@ :rect\norder\n\t@z\n\t@z\n\t@s\n\t@nosuch\n\t@y.s.s\n";
    let c = compiled(text);
    assert_eq!(draw_order(&c), ["z.z", "y.s.s", "x.s.s"]);
    let m = messages(&c);
    assert!(m.iter().any(|m| m.starts_with("warning") && m.contains("already listed")), "{m:?}");
    assert!(m.iter().any(|m| m.contains("ambiguous slot reference `s`")), "{m:?}");
    assert!(m.iter().any(|m| m.contains("unknown slot `nosuch`")), "{m:?}");
}

// ---- skeleton recovery ---------------------------------------------------

#[test]
fn invalid_bone_line_drops_its_nested_slot() {
    let c = compiled(
        "skeleton\n\thip\n\t1bone l10\n\t\t@s :rect w1 h1\n\t\t@t :circle d2\n\tarm\n\t\t@ :rect w1 h1\n",
    );
    assert_eq!(bone_names(&c), ["hip", "arm"]);
    assert_eq!(
        slot_names(&c),
        ["arm.arm"],
        "the slots under the invalid bone line must not be created"
    );
    assert_eq!(c.diagnostics.len(), 1, "reported once: {:?}", messages(&c));
}

#[test]
fn bone_named_skeleton_is_rejected_with_its_slots() {
    let c = compiled("skeleton\n\tarm.skeleton l5\n\t\t@ :rect w1 h1\n\tarm\n");
    assert_eq!(bone_names(&c), ["arm"]);
    assert!(slot_names(&c).is_empty());
}

#[test]
fn invalid_slot_line_closes_the_open_path() {
    let text = "skeleton\n\thip\n\t\t@p :path\n\t\t\tL 1,1\n\t\tbogus\n\t\t\tL 2,2\n\t\t\tL 3,3\n";
    let c = compiled(text);
    let p = path_of(attachment(&c, "default", "hip.p", "p"));
    assert_eq!(p.segments.len(), 1, "path commands under the invalid line must be ignored: {p:?}");
    assert_eq!(c.diagnostics.len(), 1, "{:?}", messages(&c));
}

#[test]
fn bad_tokens_do_not_stop_the_rest_of_a_bone_line() {
    let c = compiled("skeleton\n\thip q5 x3 #GG y-2 x1e3 l7 flip-z no-rot\n");
    let b = &c.armature.skeleton.bones[0];
    assert_eq!((b.setup.x, b.setup.y, b.length), (3.0, -2.0, 7.0));
    assert!(!b.inherit_rotation);
    assert_eq!(c.diagnostics.len(), 4, "{:?}", messages(&c));
}

#[test]
fn lines_after_a_column_zero_non_section_are_ignored() {
    let c = compiled("skeleton\n\thip\nfoo\n\tarm\n\tleg\nskeleton\n\tneck\n");
    assert_eq!(bone_names(&c), ["hip", "neck"]);
    assert_eq!(c.diagnostics.len(), 1, "the orphaned block is reported once: {:?}", messages(&c));
}

#[test]
fn a_line_starting_with_a_space_ends_the_section() {
    let c = compiled("skeleton\n\thip\n  arm\n\tleg\n");
    assert_eq!(bone_names(&c), ["hip"]);
    assert_eq!(c.diagnostics.len(), 1, "{:?}", messages(&c));
    assert!(c.diagnostics[0].hints.iter().any(|h| h.contains("indent with tabs")));
}

#[test]
fn implicit_parents_come_after_written_bones_and_later_lines_overwrite() {
    let c = compiled("skeleton #00F\n\tarm.hand x5\n\tleg l3\n\tarm.hand y2 x9 #F00\n");
    assert_clean(&c);
    // Parents first (by depth), written bones before implicit ones.
    assert_eq!(bone_names(&c), ["leg", "arm", "arm.hand"]);
    let sk = &c.armature.skeleton;
    let hand = sk.bone(bone_id(&c, "arm.hand"));
    assert_eq!((hand.setup.x, hand.setup.y), (9.0, 2.0));
    assert_eq!(hand.parent, Some(bone_id(&c, "arm")));
    assert_eq!(hand.color, Color::new(1.0, 0.0, 0.0, 1.0));
    // The skeleton color applies to bones without their own, implicit ones too.
    assert_eq!(sk.bone(bone_id(&c, "arm")).color, Color::new(0.0, 0.0, 1.0, 1.0));
}

#[test]
fn unknown_attachment_type_draws_nothing_but_keeps_the_slot() {
    let c = compiled("skeleton\n\thip\n\t\t@s #F00 :triangle w10 x3\n");
    assert_eq!(slot_names(&c), ["hip.s"]);
    let a = attachment(&c, "default", "hip.s", "s");
    assert_eq!(a.kind, AttachmentKind::None);
    assert_eq!(c.armature.skeleton.slots[0].color, Color::new(1.0, 0.0, 0.0, 1.0));
}

#[test]
fn comment_ending_in_backslash_swallows_the_next_line() {
    let c = compiled("skeleton\n\thip # note \\\n\tarm\n\tleg\n");
    assert_clean(&c);
    assert_eq!(bone_names(&c), ["hip", "leg"]);
}

#[test]
fn crlf_compiles_like_lf() {
    let lf = "skeleton\n\thip x3\n\t\t@ :rect w2 h2\n\tarm q1\nanim \"a\"\n\thip\n\t\tx 0 -> 10\n";
    let crlf = lf.replace('\n', "\r\n");
    let (a, b) = (compiled(lf), compiled(&crlf));
    assert_eq!(bone_names(&a), bone_names(&b));
    assert_eq!(slot_names(&a), slot_names(&b));
    assert_eq!(messages(&a), messages(&b));
    assert_eq!(a.armature.animations, b.armature.animations);
}

// ---- references ------------------------------------------------------------

#[test]
fn one_does_not_resolve_to_bone() {
    let text = "skeleton\n\tbone x100\n\tarm\n\t\t@p :path\n\t\t\tL 1,1:one\n\t\t\tL 2,2:bone\n";
    let c = compiled(text);
    let p = path_of(attachment(&c, "default", "arm.p", "p"));
    let pts = p.points();
    let arm = bone_id(&c, "arm");
    let bone = bone_id(&c, "bone");
    assert_eq!(pts[1].bone, arm, "`one` must fall back to the default bone");
    assert_eq!(pts[2].bone, bone);
    assert!(messages(&c).iter().any(|m| m.contains("unknown bone `one`")));
}

#[test]
fn skeleton_prefix_picks_the_root_bone() {
    let text = "skeleton\n\tbone\n\tbone.bone\n\t\t@p :path\n\t\t\tL 1,1:skeleton.bone\n\t\t\t: bone.bone\n\t\t\tL 2,2\nanim \"a\"\n\tskeleton.bone\n\t\tx 0 -> 1\n";
    let c = compiled(text);
    assert_clean(&c);
    let p = path_of(attachment(&c, "default", "bone.bone.p", "p"));
    let pts = p.points();
    assert_eq!(pts[1].bone, bone_id(&c, "bone"));
    assert_eq!(pts[2].bone, bone_id(&c, "bone.bone"));
    let (_, a) = anim(&c, "a");
    assert_eq!(a.bones.len(), 1);
    assert_eq!(a.bones[0].bone, bone_id(&c, "bone"));
}

#[test]
fn ambiguous_anim_item_is_dropped() {
    let c = compiled(
        "skeleton\n\tbone\n\tleg.bone\nanim \"a\"\n\tbone\n\t\tx 0 -> 1\n\tleg.bone\n\t\ty 0 -> 1\n",
    );
    let (_, a) = anim(&c, "a");
    assert_eq!(a.bones.len(), 1);
    assert_eq!(a.bones[0].property, BoneProperty::Y);
    assert_eq!(a.bones[0].bone, bone_id(&c, "leg.bone"));
}

#[test]
fn unknown_path_switch_keeps_the_default_bone() {
    let text = "skeleton\n\thip\n\tarm\n\t\t@p :path\n\t\t\t: hip\n\t\t\tL 1,1\n\t\t\t: nosuch\n\t\t\tL 2,2\n";
    let c = compiled(text);
    let pts = path_of(attachment(&c, "default", "arm.p", "p")).points();
    let hip = bone_id(&c, "hip");
    // The implied start point stays on the slot's bone.
    assert_eq!(pts[0].bone, bone_id(&c, "arm"));
    assert_eq!((pts[1].bone, pts[2].bone), (hip, hip));
}

// ---- paths ---------------------------------------------------------------

#[test]
fn path_commands_after_close_and_restarting_move() {
    let text = "skeleton\n\thip\n\t\t@p :path\n\t\t\tL 1,1\n\t\t\tM 5,5\n\t\t\tL 6,6\n\t\t\tC\n\t\t\tL 9,9\n";
    let c = compiled(text);
    let p = path_of(attachment(&c, "default", "hip.p", "p"));
    assert!(p.closed);
    assert_eq!((p.start.x, p.start.y), (5.0, 5.0), "a later M starts the path again");
    assert_eq!(p.segments.len(), 1, "commands after C are ignored: {p:?}");
    assert_eq!(c.diagnostics.iter().filter(|d| !d.is_error()).count(), 2, "{:?}", messages(&c));
}

#[test]
fn path_commands_merge_when_an_attachment_is_redefined() {
    let text = "skeleton\n\thip\n\t\t@p :path\n\t\t\tL 1,1\n\thip\n\t\t@p\n\t\t\tL 2,2\n\t\t@q :rect w1\n\t\t@q :circle d4\n";
    let c = compiled(text);
    assert_eq!(path_of(attachment(&c, "default", "hip.p", "p")).segments.len(), 2);
    // A different type replaces the attachment.
    assert!(
        matches!(attachment(&c, "default", "hip.q", "q").kind, AttachmentKind::Circle { radius, .. } if radius == 2.0)
    );
}

// ---- skins -----------------------------------------------------------------

const SKINNED: &str =
    "skeleton\n\thip\n\t\t@ :circle d10\n\t\t@[alt] :rect w1 h1\n\tarm\n\t\t@ :rect w2 h2\n";

#[test]
fn skin_item_replaces_the_attachment_only_in_that_skin() {
    let c = compiled(&format!(
        "{SKINNED}skin \"red\"\n\t@hip :circle d20 f#F00\n\t@arm\nskin \"blue\"\n\t@hip[alt] :ellipse w4 h2\n"
    ));
    assert_clean(&c);
    let circle = |a: &Attachment| match a.kind {
        AttachmentKind::Circle { radius, style } => (radius, style.fill),
        ref k => panic!("not a circle: {k:?}"),
    };
    assert_eq!(circle(attachment(&c, "default", "hip.hip", "hip")), (5.0, Color::BLACK));
    assert_eq!(
        circle(attachment(&c, "red", "hip.hip", "hip")),
        (10.0, Color::new(1.0, 0.0, 0.0, 1.0))
    );
    assert_eq!(circle(attachment(&c, "blue", "hip.hip", "hip")), (5.0, Color::BLACK));
    // Without a type the skin hides the attachment.
    assert_eq!(attachment(&c, "red", "arm.arm", "arm").kind, AttachmentKind::None);
    assert!(matches!(
        attachment(&c, "default", "arm.arm", "arm").kind,
        AttachmentKind::Rect { .. }
    ));
    assert!(matches!(
        attachment(&c, "blue", "hip.hip", "alt").kind,
        AttachmentKind::Ellipse { .. }
    ));
    assert!(matches!(attachment(&c, "red", "hip.hip", "alt").kind, AttachmentKind::Rect { .. }));
    // The pose of a skin shows that skin's attachment.
    let sk = &c.armature.skeleton;
    let red = sk.skin_by_name("red").expect("skin");
    let pose = evaluate(&c.armature, None, red, 0.0);
    let (_, shown) =
        pose.attachment(sk, slot_id(&c, "arm.arm")).expect("the slot shows its setup attachment");
    assert_eq!(shown.kind, AttachmentKind::None);
}

#[test]
fn skin_sections_with_the_same_name_merge() {
    let c = compiled(&format!(
        "{SKINNED}skin \"red\"\n\t@hip :circle d20\nskin \"red\"\n\t@arm :circle d6\n"
    ));
    assert_eq!(c.armature.skeleton.skins.len(), 2);
    assert!(
        matches!(attachment(&c, "red", "hip.hip", "hip").kind, AttachmentKind::Circle { radius, .. } if radius == 10.0)
    );
    assert!(
        matches!(attachment(&c, "red", "arm.arm", "arm").kind, AttachmentKind::Circle { radius, .. } if radius == 3.0)
    );
}

#[test]
fn skin_items_for_missing_attachments_and_bad_skins_are_dropped() {
    let text = format!(
        "{SKINNED}skin \"s\"\n\t@hip[nosuch] :rect w9 h9\n\t@nosuch :rect w9 h9\nskin \"default\"\n\t@hip :rect w9 h9\nskin plain\n\t@hip :rect w9 h9\n"
    );
    let c = compiled(&text);
    let names: Vec<&str> = c.armature.skeleton.skins.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["default", "s"]);
    let sk = &c.armature.skeleton;
    assert!(sk.skins[1].replaced.is_empty(), "skin `s` replaces nothing: {:?}", sk.skins[1]);
    assert!(matches!(
        attachment(&c, "default", "hip.hip", "hip").kind,
        AttachmentKind::Circle { .. }
    ));
    assert!(c.diagnostics.iter().any(|d| !d.is_error() && d.message.contains("default")));
}

// ---- animations ------------------------------------------------------------

const ONE_BONE: &str = "skeleton\n\thip\n\t\t@ :rect w1 h1\n\t\t@[alt] :circle d2\n";

#[test]
fn zero_loop_discards_its_keys_but_keeps_the_frames() {
    let c = compiled(&format!("{ONE_BONE}anim \"a\"\n\thip\n\t\tx 0 {{ -> 10 -> 20 }}[0] -> 30\n"));
    assert_clean(&c);
    let (_, a) = anim(&c, "a");
    assert_eq!(a.bones.len(), 1);
    // Frames: 0, the loop body advances to 10, then -> 15 (20 fps).
    assert_keys(&a.bones[0].keys, &[(0.0, 0.0), (15.0 / 20.0, 30.0)]);
    assert!(close(a.duration_secs, 0.75));
}

#[test]
fn loops_repeat_their_body_and_keep_advancing() {
    let c = compiled(&format!("{ONE_BONE}anim \"a\"\n\thip\n\t\tx 0 {{ -> +10 }}[3] -> *2\n"));
    assert_clean(&c);
    let (_, a) = anim(&c, "a");
    assert_keys(
        &a.bones[0].keys,
        &[(0.0, 0.0), (0.25, 10.0), (0.5, 20.0), (0.75, 30.0), (1.0, 60.0)],
    );
}

#[test]
fn unmatched_braces() {
    // `}` without `{` is ignored; an unclosed `{` drops the keys pushed after it.
    let c = compiled(&format!(
        "{ONE_BONE}anim \"a\"\n\thip\n\t\tx 0 }} -> 10\n\t\ty 0 -> 1 {{ -> 2 -> 3\n"
    ));
    let (_, a) = anim(&c, "a");
    let x = a.bones.iter().find(|b| b.property == BoneProperty::X).expect("x channel");
    let y = a.bones.iter().find(|b| b.property == BoneProperty::Y).expect("y channel");
    assert_keys(&x.keys, &[(0.0, 0.0), (0.25, 10.0)]);
    assert_keys(&y.keys, &[(0.0, 0.0), (0.25, 1.0)]);
    assert_eq!(c.diagnostics.iter().filter(|d| d.is_error()).count(), 1, "{:?}", messages(&c));
}

#[test]
fn pushing_twice_at_one_frame_replaces_the_value() {
    let c = compiled(&format!("{ONE_BONE}anim \"a\"\n\thip\n\t\tx 0 5 -> 10 20\n"));
    let (_, a) = anim(&c, "a");
    assert_keys(&a.bones[0].keys, &[(0.0, 5.0), (0.25, 20.0)]);
}

#[test]
fn c_timeline_replaces_the_rgba_timelines_of_its_slot() {
    for order in [
        "\t\tr 0.5 -> 0.5\n\t\ta 0 -> 0\n\t\tc #F00 -> #00F\n",
        "\t\tc #F00 -> #00F\n\t\tr 0.5 -> 0.5\n\t\ta 0 -> 0\n",
    ] {
        let c = compiled(&format!("{ONE_BONE}anim \"a\"\n\t@hip\n{order}"));
        assert_clean(&c);
        let (id, a) = anim(&c, "a");
        assert_eq!(
            a.slot_colors.len(),
            4,
            "only the c timeline's four channels remain: {:?}",
            a.slot_colors
        );
        let pose = evaluate(&c.armature, Some(id), SkinId(0), 0.125);
        let col = pose.slots[0].color;
        assert!(
            close(col.r, 0.5) && close(col.g, 0.0) && close(col.b, 0.5) && close(col.a, 1.0),
            "{col:?}"
        );
    }
}

#[test]
fn rgba_timelines_of_another_slot_are_kept() {
    let text = "skeleton\n\thip\n\t\t@ :rect\n\tarm\n\t\t@ :rect\nanim \"a\"\n\t@hip\n\t\tc #F00 -> #00F\n\t@arm\n\t\tg 0.25 -> 0.25\n";
    let c = compiled(text);
    let (id, a) = anim(&c, "a");
    assert_eq!(a.slot_colors.len(), 5);
    let pose = evaluate(&c.armature, Some(id), SkinId(0), 0.1);
    assert!(close(pose.slots[slot_id(&c, "arm.arm").index()].color.g, 0.25));
}

#[test]
fn a_later_timeline_for_the_same_property_replaces_the_earlier_one() {
    let c = compiled(&format!(
        "{ONE_BONE}anim \"a\"\n\thip\n\t\tx 0 -> 10\n\t\ty 1 -> 2\n\thip\n\t\tx 7 -> 7 -> 7\n"
    ));
    let (_, a) = anim(&c, "a");
    let xs: Vec<&BoneChannel> = a.bones.iter().filter(|b| b.property == BoneProperty::X).collect();
    assert_eq!(xs.len(), 1);
    assert_keys(&xs[0].keys, &[(0.0, 7.0), (0.25, 7.0), (0.5, 7.0)]);
    assert_eq!(a.bones.iter().filter(|b| b.property == BoneProperty::Y).count(), 1);
    assert!(close(a.duration_secs, 0.5));
}

#[test]
fn sections_of_one_animation_merge_and_later_timelines_win() {
    let c = compiled(&format!(
        "{ONE_BONE}anim \"a\" 10fps\n\thip\n\t\tx 0 -> 10\nanim \"b\"\n\thip\n\t\tr 0 -> 1\nanim \"a\" 20fps\n\thip\n\t\tx 3 -> 3\n\t\ty 0 -> 1\n"
    ));
    assert_eq!(c.armature.animations.len(), 2);
    let (_, a) = anim(&c, "a");
    assert_eq!(a.fps, 20.0, "the later header overrides the frame rate");
    let x = a.bones.iter().find(|b| b.property == BoneProperty::X).expect("x");
    assert_keys(&x.keys, &[(0.0, 3.0), (0.25, 3.0)]);
    assert_eq!(a.bones.len(), 2);
}

#[test]
fn unknown_attachment_key_shows_nothing() {
    let c = compiled(&format!("{ONE_BONE}anim \"a\"\n\t@hip\n\t\t@ alt -> nosuch -> hip\n"));
    assert!(!c.has_errors());
    assert_eq!(c.diagnostics.len(), 1, "one warning: {:?}", messages(&c));
    let (id, _) = anim(&c, "a");
    let sk = &c.armature.skeleton;
    let slot = slot_id(&c, "hip.hip");
    let at = |t: f64| evaluate(&c.armature, Some(id), SkinId(0), t).slots[slot.index()].attachment;
    assert_eq!(at(0.0), sk.find_attachment(slot, "alt"));
    assert_eq!(at(0.3), None, "an unknown attachment name shows nothing");
    assert_eq!(at(0.5), sk.find_attachment(slot, "hip"));
    // Before the animation touches the slot, the setup attachment shows.
    assert_eq!(
        evaluate(&c.armature, None, SkinId(0), 0.0).slots[slot.index()].attachment,
        sk.find_attachment(slot, "hip")
    );
}

#[test]
fn durations_follow_frames_fps_and_options() {
    let text = format!(
        "{ONE_BONE}anim \"fps\" 24fps\n\thip\n\t\tx 0 -> 1 -> 2\n\
         anim \"zero\" 0fps\n\thip\n\t\tx 0 -> 1\n\
         anim \"opts\" 10:2\n\thip\n\t\tx 0 -> 1\n\thip 4:\n\t\ty 0 --> 1\n\
         anim \"timeline\"\n\thip\n\t\tx 0 30:> 1 +5::> 2\n\
         anim \"empty\"\n\thip\n"
    );
    let c = compiled(&text);
    let dur = |n: &str| anim(&c, n).1.duration_secs;
    assert!(close(dur("fps"), 10.0 / 24.0));
    assert!(close(dur("zero"), 5.0 / 20.0), "0fps falls back to 20fps");
    // Start frame 10, step 2: frames 10 and 12. Item `4:` starts at 4, step 2: frames 4 and 8.
    assert!(close(dur("opts"), 12.0 / 20.0));
    let (_, a) = anim(&c, "opts");
    let y = a.bones.iter().find(|b| b.property == BoneProperty::Y).expect("y");
    assert_keys(&y.keys, &[(4.0 / 20.0, 0.0), (8.0 / 20.0, 1.0)]);
    assert!(close(dur("timeline"), 35.0 / 20.0));
    assert_eq!(dur("empty"), 0.0);
}

#[test]
fn unknown_easing_is_ignored_and_linear_is_used() {
    let c = compiled(&format!("{ONE_BONE}anim \"a\" ::bogus\n\thip\n\t\tx 0 -> 10\n"));
    assert!(c.has_errors());
    let (id, a) = anim(&c, "a");
    assert_eq!(a.bones[0].keys[0].curve, Curve::Eased(Easing::Linear));
    let pose = evaluate(&c.armature, Some(id), SkinId(0), 0.125);
    assert!(close(pose.bones[0].local.x, 5.0));
}

#[test]
fn color_timeline_on_a_bone_is_ignored() {
    let c = compiled(&format!("{ONE_BONE}anim \"a\"\n\thip\n\t\tc #F00 -> #0F0\n\t\tx 0 -> 1\n"));
    let (_, a) = anim(&c, "a");
    assert!(a.slot_colors.is_empty());
    assert_eq!(a.bones.len(), 1);
    assert_eq!(c.diagnostics.len(), 1, "{:?}", messages(&c));
}

#[test]
fn huge_loop_count_stops_with_an_error_and_keeps_the_first_keys() {
    // The original would loop a billion times; this must return.
    let c = compiled(&format!("{ONE_BONE}anim \"a\"\n\thip\n\t\tx 0 {{ -> +1 }}[999999999]\n"));
    assert!(c.has_errors(), "the runaway loop is reported");
    assert!(!messages(&c).iter().any(|m| m.contains("never closed")), "{:?}", messages(&c));
    assert!(
        c.diagnostics.iter().any(|d| d.is_error() && d.message.contains("too many keys")),
        "{:?}",
        messages(&c)
    );
    // The result can still be posed.
    let (id, a) = anim(&c, "a");
    let keys = a.bones[0].keys.len();
    assert!(
        (100_000..=100_002).contains(&keys),
        "the keys pushed before the stop are kept: {keys}"
    );
    assert!(a.duration_secs > 0.0);
    let pose = evaluate(&c.armature, Some(id), SkinId(0), a.duration_secs / 2.0);
    assert!(pose.bones[0].world.is_finite());
}

#[test]
fn nested_huge_loops_terminate_too() {
    let c = compiled(&format!(
        "{ONE_BONE}anim \"a\"\n\thip\n\t\tx 0 {{ {{ {{ > }}[99999] }}[99999] }}[99999]\n"
    ));
    assert!(c.has_errors());
}

#[test]
fn flip_and_attachment_timelines_are_stepped() {
    let c = compiled(&format!("{ONE_BONE}anim \"a\"\n\thip\n\t\ts false -> true\n\t\tx 0 -> 10\n"));
    assert_clean(&c);
    let (id, _) = anim(&c, "a");
    let at = |t: f64| evaluate(&c.armature, Some(id), SkinId(0), t).bones[0].local.flip_x;
    assert!(!at(0.2));
    assert!(at(0.25));
    assert!(at(9.0), "after the last key the last value holds");
}

#[test]
fn rotation_keys_are_normalized_and_take_the_short_way() {
    let c = compiled("skeleton\n\thip r170\nanim \"a\"\n\thip\n\t\tr 0 -> 20 -> 360\n");
    let (id, a) = anim(&c, "a");
    assert!(close(a.bones[0].keys[2].value, 0.0), "360 degrees is normalized to 0");
    let rot = |t: f64| {
        evaluate(&c.armature, Some(id), SkinId(0), t).bones[0].local.rotation_rad.to_degrees()
    };
    // Relative to the setup rotation of 170 degrees.
    assert!(close(rot(0.125), 180.0));
}

// ---- faithful oddities ---------------------------------------------------------

/// The original reads `\t\t` + any character + whitespace as a timeline, so
/// these over-indented lines still animate; skelpad follows it (same model)
/// but says so with a warning.
#[test]
fn timeline_indented_with_extra_whitespace_is_read_and_reported() {
    for line in ["\t\t  y 0 -> 10\n", "\t\t\t\tx 0 -> 10\n", "\t\t\t y 0 -> 10\n"] {
        let c = compiled(&format!("{ONE_BONE}anim \"a\"\n\thip\n{line}"));
        let (_, a) = anim(&c, "a");
        assert_eq!(a.bones.len(), 1, "{line:?} is a timeline for the original tool");
        assert!(
            c.diagnostics
                .iter()
                .any(|d| d.severity == Severity::Warning && d.message.contains("indented deeper")),
            "{line:?} must be reported: {:?}",
            c.diagnostics
        );
    }
}

/// The original reads a lone `"` as the quoted name `"` (its substring
/// call swaps the bounds); skelpad names the animation the same way.
#[test]
fn a_lone_quote_names_an_animation_like_the_original() {
    let c = compile(&format!("{ONE_BONE}anim \" 4fps\n\thip\n\t\tx 0 -> 1\n"));
    assert!(
        c.armature.animation_by_name("\"").is_some(),
        "{:?}",
        c.armature.animations.iter().map(|a| &a.name).collect::<Vec<_>>()
    );
}

#[test]
fn keys_after_the_last_allowed_frame_are_an_error_at_their_place_and_the_rest_stays() {
    let text = "skeleton\n\ta l10\nanim \"long\" 10fps\n\ta\n\t\tx 0 -> 5 1000000000000000:> 1 -> 2\n\t\ty 0 1000000:> 3\n";
    let c = compiled(text);
    let errors: Vec<&skelpad::syntax::Diagnostic> =
        c.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert_eq!(errors.len(), 1, "{:?}", c.diagnostics);
    // Reported once, at the first key pushed beyond the limit: the `1`.
    let at = text.find(":> 1").unwrap() + 3;
    assert_eq!(errors[0].span.range(), at..at + 1, "{:?}", errors[0]);
    assert!(
        errors[0].message.contains("frame 1000000000000000")
            && errors[0].message.contains("1000000"),
        "{}",
        errors[0].message
    );
    let (_, a) = anim(&c, "long");
    // The valid keys stay: x at frames 0 and 5; y up to the last allowed frame.
    let x = a.bones.iter().find(|ch| ch.property == BoneProperty::X).expect("x channel");
    assert_keys(&x.keys, &[(0.0, 0.0), (0.5, 5.0)]);
    assert!((a.duration_secs - 100_000.0).abs() < 1e-6, "{}", a.duration_secs);
}

#[test]
fn a_loop_that_runs_past_the_last_frame_keeps_its_early_keys() {
    let text = "skeleton\n\ta l10\nanim \"l\"\n\ta\n\t\tr 0 { +499995:> 1 }[5]\n";
    let c = compiled(text);
    assert_eq!(c.diagnostics.iter().filter(|d| d.is_error()).count(), 1, "{:?}", c.diagnostics);
    let (_, a) = anim(&c, "l");
    assert_eq!(a.bones[0].keys.len(), 3, "frames 0, 499995 and 999990");
}

/// Bones are parents first, and the check sees a parent placed later (the
/// order the runtime's one pass and IK's walk up a chain rely on).
#[test]
fn armatures_are_parents_first_and_the_check_sees_a_later_parent() {
    let c = compile("skeleton\n\tarm l40\n\tarm.hand l20\n\tarm.hand.finger l5\n");
    assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
    assert!(c.armature.parents_first());
    let mut sk = (*c.armature.skeleton).clone();
    sk.bones[0].parent = Some(BoneId::from_index(2));
    let later = Armature { skeleton: std::sync::Arc::new(sk), animations: Vec::new() };
    assert!(!later.parents_first());
}
