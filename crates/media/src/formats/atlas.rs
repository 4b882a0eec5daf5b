//! Packing pictures into atlas pages with a shelf packer (`etagere`).
//!
//! Every picture gets `padding` transparent pixels on each side inside its
//! slot, so filtering at a texture's edge never reads a neighbour. Pages are
//! powers of two: the smallest square side that holds everything (up to
//! `max_side`; past that, more pages of `max_side`), cut down in height to
//! the power of two that holds what was placed.

use etagere::{AtlasAllocator, size2};

/// Where a picture is placed: its page and the top-left pixel of the picture
/// itself (inside its padding).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// The atlas page (index into `Layout::pages`).
    pub page: usize,
    /// Left column of the picture on its page, in pixels.
    pub x: u32,
    /// Top row of the picture on its page, in pixels.
    pub y: u32,
}

/// Page sizes and one place per picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Width and height of each page, in pixels.
    pub pages: Vec<(u32, u32)>,
    /// Where each picture goes, in the order they were given.
    pub places: Vec<Place>,
}

/// Why pictures do not fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooLarge {
    /// Index of the picture that is larger than a page.
    pub index: usize,
}

/// Lays out pictures of the given sizes.
pub fn layout(sizes: &[(u32, u32)], padding: u32, max_side: u32) -> Result<Layout, TooLarge> {
    let padded: Vec<(u32, u32)> =
        sizes.iter().map(|&(w, h)| (w.max(1) + 2 * padding, h.max(1) + 2 * padding)).collect();
    if let Some(index) = padded.iter().position(|&(w, h)| w > max_side || h > max_side) {
        return Err(TooLarge { index });
    }
    // Tallest first packs shelves tightly.
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(padded[i].1), std::cmp::Reverse(padded[i].0)));
    let area: u64 = padded.iter().map(|&(w, h)| w as u64 * h as u64).sum();
    let longest = padded.iter().map(|&(w, h)| w.max(h)).max().unwrap_or(1);
    let mut side = (area as f64).sqrt().ceil().max(longest as f64).max(16.0) as u32;
    side = side.next_power_of_two().min(max_side);
    loop {
        if let Some(places) = try_pages(&padded, &order, side, padding, side < max_side) {
            // Each page is as tall as the power of two that holds its
            // lowest picture (shelves fill from the top).
            let count = places.iter().map(|p| p.page).max().unwrap_or(0) + 1;
            let mut bottom = vec![1u32; count];
            for (p, &(_, h)) in places.iter().zip(&padded) {
                bottom[p.page] = bottom[p.page].max(p.y - padding + h);
            }
            let pages = bottom.iter().map(|&b| (side, b.next_power_of_two().min(side))).collect();
            return Ok(Layout { pages, places });
        }
        side = (side * 2).min(max_side);
    }
}

/// Packs into pages of `side`; with `one_page`, gives up when a second page
/// would be needed (so the caller can try a larger side).
fn try_pages(
    padded: &[(u32, u32)],
    order: &[usize],
    side: u32,
    padding: u32,
    one_page: bool,
) -> Option<Vec<Place>> {
    let mut places = vec![Place { page: 0, x: 0, y: 0 }; padded.len()];
    let new_page = || AtlasAllocator::new(size2(side as i32, side as i32));
    let mut pages = vec![new_page()];
    for &i in order {
        let (w, h) = padded[i];
        let size = size2(w as i32, h as i32);
        let mut placed = None;
        for (p, alloc) in pages.iter_mut().enumerate() {
            if let Some(a) = alloc.allocate(size) {
                placed = Some((p, a.rectangle.min));
                break;
            }
        }
        if placed.is_none() {
            if one_page {
                return None;
            }
            let mut alloc = new_page();
            let a = alloc.allocate(size)?;
            pages.push(alloc);
            placed = Some((pages.len() - 1, a.rectangle.min));
        }
        let (page, min) = placed?;
        places[i] = Place { page, x: min.x as u32 + padding, y: min.y as u32 + padding };
    }
    Some(places)
}

/// Draws pictures (straight-alpha RGBA rows) onto their pages.
pub fn compose(layout: &Layout, pictures: &[(u32, u32, &[u8])]) -> Vec<Vec<u8>> {
    let mut pages: Vec<Vec<u8>> =
        layout.pages.iter().map(|&(w, h)| vec![0u8; w as usize * h as usize * 4]).collect();
    for (place, &(w, h, rgba)) in layout.places.iter().zip(pictures) {
        let page_w = layout.pages[place.page].0 as usize;
        let page = &mut pages[place.page];
        let row = w as usize * 4;
        for y in 0..h as usize {
            let dst = ((place.y as usize + y) * page_w + place.x as usize) * 4;
            page[dst..dst + row].copy_from_slice(&rgba[y * row..(y + 1) * row]);
        }
    }
    pages
}

#[cfg(test)]
mod tests {
    use super::*;

    fn overlap(a: (Place, (u32, u32)), b: (Place, (u32, u32)), pad: u32) -> bool {
        let (pa, (wa, ha)) = a;
        let (pb, (wb, hb)) = b;
        pa.page == pb.page
            && pa.x < pb.x + wb + pad
            && pb.x < pa.x + wa + pad
            && pa.y < pb.y + hb + pad
            && pb.y < pa.y + ha + pad
    }

    #[test]
    fn pictures_never_touch_and_stay_inside_their_page() {
        let sizes: Vec<(u32, u32)> =
            (0..300).map(|i| (5 + (i * 7) % 40, 3 + (i * 13) % 30)).collect();
        let l = layout(&sizes, 2, 1024).unwrap();
        assert_eq!(l.pages.len(), 1, "{:?}", l.pages);
        for i in 0..sizes.len() {
            let p = l.places[i];
            let (pw, ph) = l.pages[p.page];
            assert!(
                p.x >= 2 && p.y >= 2 && p.x + sizes[i].0 + 2 <= pw && p.y + sizes[i].1 + 2 <= ph
            );
            for j in 0..i {
                assert!(
                    !overlap((l.places[i], sizes[i]), (l.places[j], sizes[j]), 2),
                    "{i} and {j} are closer than the padding"
                );
            }
        }
    }

    #[test]
    fn overflow_opens_more_pages_and_oversize_is_an_error() {
        let sizes = vec![(60, 60); 10];
        let l = layout(&sizes, 1, 128).unwrap();
        assert!(l.pages.len() > 1);
        assert!(l.pages.iter().all(|&(w, h)| w == 128 && h <= 128 && h.is_power_of_two()));
        assert_eq!(l.pages[0].1, 128, "a full page keeps its height");
        assert_eq!(layout(&[(10, 10), (200, 5)], 1, 128), Err(TooLarge { index: 1 }));
    }

    #[test]
    fn compose_copies_pixels_to_their_place() {
        let l = layout(&[(2, 1)], 1, 64).unwrap();
        let px = [1u8, 2, 3, 4, 5, 6, 7, 8];
        let pages = compose(&l, &[(2, 1, &px)]);
        let p = l.places[0];
        let w = l.pages[0].0 as usize;
        let at = (p.y as usize * w + p.x as usize) * 4;
        assert_eq!(&pages[0][at..at + 8], &px);
        assert_eq!(pages[0].iter().map(|&b| b as u32).sum::<u32>(), 36);
    }
}
