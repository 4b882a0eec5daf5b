//! What the editor remembers between runs. Window size and panel sizes are
//! kept by eframe and egui's own persisted memory; everything else the user
//! chose lives here, stored as one value under [`Settings::KEY`].
//!
//! Kept here: theme, recent files, view settings (grid, bones, onion skin,
//! loop, speed) and the canvas view.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Light, dark, or whatever the system says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Theme {
    /// Whatever the system prefers.
    #[default]
    System,
    /// Always light.
    Light,
    /// Always dark.
    Dark,
}

impl Theme {
    /// Every theme, in menu order.
    pub const ALL: [Theme; 3] = [Theme::System, Theme::Light, Theme::Dark];

    /// Its name in the View menu.
    pub fn label(self) -> &'static str {
        match self {
            Theme::System => "Follow the system",
            Theme::Light => "Light",
            Theme::Dark => "Dark",
        }
    }

    /// egui's setting for it.
    pub fn preference(self) -> eframe::egui::ThemePreference {
        match self {
            Theme::System => eframe::egui::ThemePreference::System,
            Theme::Light => eframe::egui::ThemePreference::Light,
            Theme::Dark => eframe::egui::ThemePreference::Dark,
        }
    }
}

/// How the canvas shows the scene.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ViewSettings {
    /// Draw the grid and axes.
    pub show_grid: bool,
    /// Draw the bone overlay.
    pub show_bones: bool,
    /// Draw ghost frames before and after the playhead.
    pub onion_skin: bool,
    /// Playback starts over at the end.
    pub looping: bool,
    /// Playback speed factor, 0.1–4.
    pub speed: f64,
    /// Canvas drags snap to whole units, 5° and tenths of scale.
    pub snap: bool,
    /// Canvas drags on a shape edit the shape's own transform (its slot
    /// line) instead of moving its bone.
    pub drag_shapes: bool,
    /// Show the outline panel (bone tree, skins, animations).
    pub show_outline: bool,
    /// Show the dopesheet under the timeline (a row of keys per item).
    pub show_dopesheet: bool,
    /// Under the dopesheet, the curve editor: the selected key's segment
    /// and its property's value graph (a strip of fixed height, so that
    /// selecting a key does not move the rows).
    pub show_curves: bool,
    /// Add the motion lints' warnings to the problems (seams, pops, keys
    /// that change nothing, …; `skelpad check --lint`).
    pub lint: bool,
    /// A canvas drag at a frame without a key first keys what it changes
    /// there (see [`super::drag::DragEdit::begin_auto_keyed`]).
    pub auto_key: bool,
}

impl Default for ViewSettings {
    fn default() -> Self {
        ViewSettings {
            show_grid: true,
            show_bones: true,
            onion_skin: false,
            looping: true,
            speed: 1.0,
            snap: false,
            drag_shapes: false,
            show_outline: false,
            show_dopesheet: false,
            show_curves: true,
            lint: false,
            auto_key: false,
        }
    }
}

/// Every persisted choice of the user.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Light, dark or the system's.
    pub theme: Theme,
    /// Most recent first, at most [`Settings::MAX_RECENT`].
    pub recent_files: Vec<PathBuf>,
    /// How the canvas shows the scene.
    pub view: ViewSettings,
}

impl Settings {
    /// The storage key.
    pub const KEY: &'static str = "skelpad.settings";
    /// The most recent files remembered.
    pub const MAX_RECENT: usize = 10;

    /// Puts `path` first in the recent files.
    pub fn add_recent(&mut self, path: &Path) {
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        self.recent_files.retain(|p| p != &path);
        self.recent_files.insert(0, path);
        self.recent_files.truncate(Self::MAX_RECENT);
    }

    /// The stored settings, or the defaults.
    pub fn load(storage: Option<&dyn eframe::Storage>) -> Settings {
        storage.and_then(|s| eframe::get_value(s, Self::KEY)).unwrap_or_default()
    }

    /// Stores them.
    pub fn store(&self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, Self::KEY, self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_files_are_unique_newest_first_and_bounded() {
        let mut s = Settings::default();
        for i in 0..12 {
            s.add_recent(Path::new(&format!("/nonexistent/{i}.skel2d")));
        }
        s.add_recent(Path::new("/nonexistent/5.skel2d"));
        assert_eq!(s.recent_files.len(), Settings::MAX_RECENT);
        assert_eq!(s.recent_files[0], Path::new("/nonexistent/5.skel2d"));
        assert_eq!(s.recent_files.iter().filter(|p| p.ends_with("5.skel2d")).count(), 1);
    }

    #[test]
    fn settings_from_an_older_version_keep_their_known_fields() {
        let s: Settings = serde_json::from_str(r#"{"theme":"Dark","view":{"speed":2.0}}"#).unwrap();
        assert_eq!(s.theme, Theme::Dark);
        assert_eq!(s.view.speed, 2.0);
        assert!(s.view.show_bones);
    }
}
