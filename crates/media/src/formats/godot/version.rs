//! What differs between the two scene versions, in one table
//! (`docs/godot.md` shows it): everything else the builder writes the same
//! way for both.

use super::text::{V, quote};

/// The Godot version a scene is written for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Version {
    /// Godot 3.x: text scene format 2.
    Godot3,
    /// Godot 4.x: text scene format 3.
    #[default]
    Godot4,
}

/// The differences between the versions.
#[derive(Clone, Copy, Debug)]
pub struct Table {
    /// `format=` of the `gd_scene` header.
    pub format: u32,
    /// The sprite node's class.
    pub sprite: &'static str,
    /// A picture's resource class.
    pub texture: &'static str,
    /// The property that turns a node, and whether it is in degrees.
    pub rotation: (&'static str, bool),
    /// Packed arrays of points, whole numbers and reals.
    pub points: &'static str,
    /// Packed array of whole numbers.
    pub ints: &'static str,
    /// Packed array of reals.
    pub reals: &'static str,
    /// Calls written `Vector2( 1, 2 )` (Godot 3) or `Vector2(1, 2)`.
    pub spaced_calls: bool,
    /// Resource ids are numbers (Godot 3) or strings.
    pub numeric_ids: bool,
    /// Animations sit in an `AnimationLibrary` (Godot 4) or are the
    /// player's `anims/NAME` properties (Godot 3).
    pub library: bool,
    /// The player's property that makes method tracks call at once rather
    /// than at the end of the frame (set to 1, "immediate").
    pub method_call: &'static str,
}

const GODOT3: Table = Table {
    format: 2,
    sprite: "Sprite",
    texture: "Texture",
    rotation: ("rotation_degrees", true),
    points: "PoolVector2Array",
    ints: "PoolIntArray",
    reals: "PoolRealArray",
    spaced_calls: true,
    numeric_ids: true,
    library: false,
    method_call: "method_call_mode",
};

const GODOT4: Table = Table {
    format: 3,
    sprite: "Sprite2D",
    texture: "Texture2D",
    rotation: ("rotation", false),
    points: "PackedVector2Array",
    ints: "PackedInt32Array",
    reals: "PackedFloat32Array",
    spaced_calls: false,
    numeric_ids: false,
    library: true,
    method_call: "callback_mode_method",
};

impl Version {
    /// Its row of the table.
    pub fn table(self) -> &'static Table {
        match self {
            Version::Godot3 => &GODOT3,
            Version::Godot4 => &GODOT4,
        }
    }

    /// `3` or `4`.
    pub fn number(self) -> u32 {
        match self {
            Version::Godot3 => 3,
            Version::Godot4 => 4,
        }
    }
}

impl Table {
    /// The class as this version names it (`Sprite2D` and `Texture2D` are
    /// Godot 4's names).
    pub fn class<'a>(&self, godot4: &'a str) -> &'a str {
        match godot4 {
            "Sprite2D" => self.sprite,
            "Texture2D" => self.texture,
            other => other,
        }
    }

    /// A resource id as the headers and `ExtResource(…)` write it.
    pub fn resource_id(&self, i: usize) -> String {
        if self.numeric_ids { i.to_string() } else { quote(&i.to_string()) }
    }

    /// An angle in radians, clockwise on screen, as the rotation property
    /// takes it.
    pub fn angle(&self, rad: f64) -> f64 {
        if self.rotation.1 { rad.to_degrees() } else { rad }
    }

    /// Writes a node's metadata: `__meta__ = { … }` (Godot 3) or one
    /// `metadata/KEY = …` line per entry (Godot 4).
    pub fn write_meta(&self, meta: &[(String, V)], version: Version, out: &mut String) {
        if meta.is_empty() {
            return;
        }
        if self.library {
            for (k, v) in meta {
                out.push_str(&format!("metadata/{k} = "));
                v.write(version, out);
                out.push('\n');
            }
        } else {
            out.push_str("__meta__ = ");
            V::Dict(meta.to_vec()).write(version, out);
            out.push('\n');
        }
    }

    /// The animation's loop property and value.
    pub fn looping(&self, on: bool) -> (&'static str, V) {
        if self.library { ("loop_mode", V::Int(i64::from(on))) } else { ("loop", V::Bool(on)) }
    }
}
