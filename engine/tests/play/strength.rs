//! Strength levels: a weakened engine plays other moves than full strength, always legal ones,
//! and full strength is the search as it was.

#![allow(clippy::unwrap_used)]

use engine::{engine::Engine, play::openings::random_openings, rules::Variant, search::Limits, skill::Strength};

fn limits() -> Limits {
    Limits {
        nodes: Some(20_000),
        ..Limits::default()
    }
}

#[test]
fn a_level_plays_other_legal_moves_than_full_strength() {
    for variant in [Variant::PersianPrincess, Variant::Chess, Variant::Citadel9] {
        let openings = random_openings(variant, 12, 6, 11);
        let mut full = Engine::new();
        full.set_variant(variant);
        let mut weak = Engine::new();
        weak.set_variant(variant);
        weak.set_strength(Strength::from_skill(3));
        weak.set_skill_seed(Some(5));
        let mut differ = 0;
        for o in &openings {
            let pos = o.position();
            full.new_game();
            full.set_game(pos.clone(), &[]).unwrap();
            let a = full.search(limits(), &mut |_| {});
            weak.new_game();
            weak.set_game(pos.clone(), &[]).unwrap();
            let mut depths = Vec::new();
            let b = weak.search(limits(), &mut |info| depths.push((info.depth, info.multipv)));
            assert!(pos.is_legal_move(a.best) && pos.is_legal_move(b.best), "{}", pos.fen());
            assert!(depths.iter().all(|&(d, pv)| d <= 4 && pv == 1), "{depths:?}");
            assert_eq!(b.pv.first(), Some(&b.best));
            differ += usize::from(a.best != b.best);
        }
        assert!(
            differ >= 3,
            "{variant}: only {differ} of {} moves differ",
            openings.len()
        );
    }
}

#[test]
fn full_strength_is_the_plain_search() {
    let openings = random_openings(Variant::EgyptianEye, 4, 6, 3);
    for o in &openings {
        let mut plain = Engine::new();
        plain.set_variant(Variant::EgyptianEye);
        plain.set_game(o.position(), &[]).unwrap();
        let mut set = Engine::new();
        set.set_variant(Variant::EgyptianEye);
        set.set_strength(Strength::from_skill(20));
        set.set_game(o.position(), &[]).unwrap();
        let a = plain.search(limits(), &mut |_| {});
        let b = set.search(limits(), &mut |_| {});
        assert_eq!((a.best, a.nodes, a.score), (b.best, b.nodes, b.score));
    }
}
