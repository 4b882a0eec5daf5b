//! The little curves the analysis writes into completion details and hover
//! text (`model::sparkline`: the block characters U+2581..U+2588), painted
//! as bars. egui's bundled fonts have no glyphs for those characters, so
//! shown as text they would be empty boxes.

/// Whether `c` is one of the sparkline's bars.
fn is_bar(c: char) -> bool {
    ('\u{2581}'..='\u{2588}').contains(&c)
}

/// Whether `text` holds a sparkline.
pub fn has_bars(text: &str) -> bool {
    text.chars().any(is_bar)
}

/// `text` in a row: its words as labels (weak when `weak`), each run of
/// bars painted as that many bars, as tall as a line of text.
pub fn label(ui: &mut egui::Ui, text: &str, weak: bool) {
    ui.horizontal(|ui| {
        ui.spacing_mut().item_spacing.x = 0.0;
        let mut rest = text;
        while !rest.is_empty() {
            let bars = rest.find(is_bar).unwrap_or(rest.len());
            if bars > 0 {
                let words = egui::RichText::new(&rest[..bars]);
                ui.label(if weak { words.weak() } else { words });
                rest = &rest[bars..];
                continue;
            }
            let end = rest.find(|c: char| !is_bar(c)).unwrap_or(rest.len());
            paint(ui, &rest[..end]);
            rest = &rest[end..];
        }
    });
}

/// One run of bars: ▁ is an eighth of the line's height, █ all of it.
fn paint(ui: &mut egui::Ui, bars: &str) {
    let h = ui.text_style_height(&egui::TextStyle::Body);
    let w = 4.0;
    let n = bars.chars().count() as f32;
    let (rect, _) = ui.allocate_exact_size(egui::vec2(w * n + 4.0, h), egui::Sense::hover());
    let color = ui.visuals().weak_text_color();
    for (i, c) in bars.chars().enumerate() {
        let level = (c as u32 - 0x2580) as f32 / 8.0;
        let left = rect.left() + 2.0 + w * i as f32;
        let bar = egui::Rect::from_min_max(
            egui::pos2(left, rect.bottom() - h * level),
            egui::pos2(left + w - 1.0, rect.bottom()),
        );
        ui.painter().rect_filled(bar, 0.0, color);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_are_the_sparkline_characters() {
        assert!(has_bars("easing ▁▃▆█: sine in"));
        assert!(!has_bars("easing sio: slow at both ends"));
        assert!(is_bar('▁') && is_bar('█') && !is_bar('▀') && !is_bar('▉'));
    }
}
