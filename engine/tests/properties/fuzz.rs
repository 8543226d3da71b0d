//! Fuzzing of the FEN, setup, UCI and SAN readers: they never panic.
#![allow(clippy::wildcard_imports)]

use super::playouts::{open_positions, random_position};
use super::*;

// ---------------------------------------------------------------------------------------------
// Fuzzing
// ---------------------------------------------------------------------------------------------

pub(crate) const FEN_ALPHABET: &[char] = &[
    'K', 'Q', 'R', 'B', 'N', 'P', 'S', 'F', 'W', 'C', 'k', 'q', 'r', 'b', 'n', 'p', 's', 'f', 'w', 'c', '0', '1', '1',
    '1', '2', '5', '9', '1', '/', '/', ' ', ' ', '-', 'e', 'a', 'h', 'j', 'l', 'x', 'X', 'Z', '+', '.', '\t', '\n',
    '\0', 'é', 'ß', '€', '😀', '\u{200b}', '½',
];

pub(crate) const WEIRD_FIELDS: &[&str] = &[
    "",
    "0",
    "00",
    "01",
    "-0",
    "-1",
    "+5",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999999999",
    "1e5",
    "é",
    "😀",
    "-",
    "--",
    "KQkqKQkq",
    "Rr",
    "rR",
    "RRr",
    "a0",
    "a12",
    "p16",
    "k11",
    "e10",
    "e99999999999",
    "w",
    "b",
];

pub(crate) const WEIRD_RANKS: &[&str] = &[
    "99999999999999999999999P",
    "18446744073709551616",
    "18446744073709551615K",
    "0",
    "00",
    "0P",
    "011",
    "1P0",
    "11111111111111111111111",
    "",
    "é",
    "P😀P",
    "KKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKK",
];

pub(crate) fn random_text(rng: &mut Rng, alphabet: &[char], max_len: usize) -> String {
    let len = rng.below(max_len + 1);
    (0..len).map(|_| *rng.pick(alphabet)).collect()
}

pub(crate) fn random_bytes(rng: &mut Rng, max_len: usize) -> String {
    let len = rng.below(max_len + 1);
    let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
    match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

/// One to four random edits of a text: characters replaced, inserted, deleted or duplicated,
/// fields swapped, dropped, added or replaced with odd values, ranks replaced.
pub(crate) fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut s = text.to_string();
    for _ in 0..1 + rng.below(4) {
        let mut chars: Vec<char> = s.chars().collect();
        match rng.below(10) {
            0 if !chars.is_empty() => {
                let i = rng.below(chars.len());
                chars[i] = *rng.pick(FEN_ALPHABET);
                s = chars.into_iter().collect();
            }
            1 => {
                let i = rng.below(chars.len() + 1);
                chars.insert(i, *rng.pick(FEN_ALPHABET));
                s = chars.into_iter().collect();
            }
            2 if !chars.is_empty() => {
                let i = rng.below(chars.len());
                chars.remove(i);
                s = chars.into_iter().collect();
            }
            3 if !chars.is_empty() => {
                let i = rng.below(chars.len());
                let j = (i + rng.below(8)).min(chars.len());
                let piece: Vec<char> = chars[i..j].to_vec();
                let at = rng.below(chars.len() + 1);
                chars.splice(at..at, piece);
                s = chars.into_iter().collect();
            }
            4 => {
                let mut fields: Vec<String> = s.split(' ').map(str::to_string).collect();
                let (i, j) = (rng.below(fields.len()), rng.below(fields.len()));
                fields.swap(i, j);
                s = fields.join(" ");
            }
            5 => {
                let mut fields: Vec<String> = s.split(' ').map(str::to_string).collect();
                let i = rng.below(fields.len());
                fields[i] = rng.pick(WEIRD_FIELDS).to_string();
                s = fields.join(" ");
            }
            6 => {
                let mut fields: Vec<String> = s.split(' ').map(str::to_string).collect();
                if rng.chance(1, 2) && fields.len() > 1 {
                    let i = rng.below(fields.len());
                    fields.remove(i);
                } else {
                    fields.push(rng.pick(WEIRD_FIELDS).to_string());
                }
                s = fields.join(" ");
            }
            7 => {
                let mut fields: Vec<String> = s.split(' ').map(str::to_string).collect();
                let mut ranks: Vec<String> = fields[0].split('/').map(str::to_string).collect();
                let i = rng.below(ranks.len());
                match rng.below(3) {
                    0 => ranks[i] = rng.pick(WEIRD_RANKS).to_string(),
                    1 => {
                        let r = ranks[i].clone();
                        ranks.insert(i, r);
                    }
                    _ => {
                        ranks.remove(i);
                    }
                }
                fields[0] = ranks.join("/");
                s = fields.join(" ");
            }
            8 if !chars.is_empty() => {
                let i = rng.below(chars.len());
                chars.truncate(i);
                s = chars.into_iter().collect();
            }
            _ => {
                // Insert an odd value (a huge number, a zero, non-ASCII text) anywhere.
                let i = rng.below(chars.len() + 1);
                let run: Vec<char> = rng.pick(WEIRD_FIELDS).chars().collect();
                chars.splice(i..i, run);
                s = chars.into_iter().collect();
            }
        }
    }
    s
}

/// Sample positions of every variant: start, open positions and short random games.
pub(crate) fn sample_positions(rng: &mut Rng) -> Vec<Position> {
    let mut out = Vec::new();
    for v in Variant::ALL {
        out.push(Position::startpos(v));
        out.extend(open_positions(v));
        for _ in 0..6 {
            let mut pos = if rng.chance(1, 2) {
                Position::startpos(v)
            } else {
                random_position(v, rng)
            };
            for _ in 0..rng.below(40) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = *rng.pick(moves.as_slice());
                pos.play_unchecked(m);
            }
            out.push(pos);
        }
    }
    out
}

/// What must hold for any position a reader accepted.
pub(crate) fn check_accepted(pos: &Position) {
    let v = pos.variant();
    let fen = pos.fen();
    assert_eq!(pos.hash(), pos.compute_hash(), "{v}: {fen}");
    for convention in [Convention::MultiDigit, Convention::OnePerCell] {
        let text = pos.fen_with(convention);
        let back = Position::from_fen(v, &text).unwrap_or_else(|e| panic!("{v}: '{text}' does not read back: {e}"));
        assert_eq!(&back, pos, "{v}: {text}");
    }
    let moves = pos.legal_moves();
    assert_eq!(pos.count_legal_moves() as usize, moves.len(), "{v}: {fen}");
    assert_eq!(
        pos.has_legal_move_unfiltered(),
        !pos.legal_moves_unfiltered().is_empty(),
        "{v}: {fen}"
    );
    // Every move can be played (clocks and counters included).
    for &m in moves.iter() {
        let child = pos.after(m);
        assert_eq!(child.hash(), child.compute_hash(), "{v}: {} in {fen}", pos.uci(m));
    }
    let _ = pos.outcome();
}

/// Reads `text` both ways (setup, then position; and the FEN reader at once): they must agree
/// on the outcome and the error, and an accepted position must pass [`check_accepted`]. True
/// when accepted.
pub(crate) fn read_fen_consistently(v: Variant, text: &str) -> bool {
    let setup = parse_setup(v, text);
    let result = Position::from_fen(v, text);
    match (&setup, &result) {
        (Err(e), Err(FenError::Parse(f))) => assert_eq!(e, f, "{v}: '{text}'"),
        (Ok(s), Err(FenError::Position(e))) => assert_eq!(Position::from_setup(v, s).as_ref(), Err(e), "{v}: '{text}'"),
        (Ok(_), Ok(pos)) => check_accepted(pos),
        _ => panic!("{v}: parse_setup and from_fen disagree on '{text}': {setup:?} / {result:?}"),
    }
    result.is_ok()
}

#[test]
pub(crate) fn fuzz_fen_readers_never_panic() {
    let mut rng = Rng::new(0xF00D);
    let mut seeds: Vec<String> = Vec::new();
    for pos in sample_positions(&mut rng) {
        seeds.push(pos.fen());
        seeds.push(pos.fen_with(Convention::OnePerCell));
    }
    let mut accepted = 0;
    let mut rejected = 0;
    for i in 0..30_000 {
        let text = match i % 6 {
            0 => random_bytes(&mut rng, 100),
            1 => random_text(&mut rng, FEN_ALPHABET, 140),
            _ => mutate(rng.pick(&seeds).clone().as_str(), &mut rng),
        };
        for v in Variant::ALL {
            if read_fen_consistently(v, &text) {
                accepted += 1;
            } else {
                rejected += 1;
            }
        }
    }
    eprintln!("FEN fuzz: {accepted} accepted, {rejected} rejected");
    assert!(accepted > 100 && rejected > 100);
}

/// The fields Parsi Chess adds to the FEN (A.10: the unmoved files in the castling field, the
/// leap letters in a field of their own), filled at random: the readers never panic, accept
/// and reject consistently, and what they accept round-trips.
#[test]
pub(crate) fn fuzz_parsi_rights_fields() {
    const LETTERS: &[char] = &[
        'A', 'D', 'E', 'H', 'a', 'd', 'e', 'h', 'B', 'C', 'G', 'b', 'L', 'l', 'L', 'l', 'K', 'Q', 'k', 'q', '-', '-',
        'x', '0', 'é',
    ];
    let mut rng = Rng::new(0x9A25);
    let v = Variant::Parsi;
    let mut boards: Vec<String> = Vec::new();
    for pos in sample_positions(&mut rng).into_iter().filter(|p| p.variant() == v) {
        boards.push(pos.fen().split(' ').next().unwrap_or_default().to_string());
    }
    let (mut accepted, mut rejected) = (0, 0);
    for _ in 0..20_000 {
        let board = rng.pick(&boards).clone();
        let side = if rng.chance(1, 2) { "w" } else { "b" };
        // Mostly well-formed (a subset of the letters in order), sometimes noise.
        let field = |rng: &mut Rng, valid: &str| -> String {
            match rng.below(8) {
                0 => rng.pick(WEIRD_FIELDS).to_string(),
                1 | 2 => (0..rng.below(9)).map(|_| *rng.pick(LETTERS)).collect(),
                _ => {
                    let kept: String = valid.chars().filter(|_| rng.chance(2, 3)).collect();
                    if kept.is_empty() {
                        "-".to_string()
                    } else {
                        kept
                    }
                }
            }
        };
        let unmoved = field(&mut rng, "ADEHadeh");
        let leap = field(&mut rng, "Ll");
        let text = match rng.below(5) {
            0 => format!("{board} {side} {unmoved} 0 1"),
            1 => format!("{board} {side} {unmoved} {leap}"),
            2 => format!("{board} {side} {unmoved} {leap} {} {}", rng.below(120), rng.below(90)),
            3 => format!("{board} {side} {unmoved} {leap} {} 0 1", field(&mut rng, "Ll")),
            _ => format!("{board} {side} {unmoved} {leap} 0 1"),
        };
        if read_fen_consistently(v, &text) {
            accepted += 1;
        } else {
            rejected += 1;
        }
    }
    eprintln!("Parsi rights fuzz: {accepted} accepted, {rejected} rejected");
    assert!(
        accepted > 1000 && rejected > 1000,
        "{accepted} accepted, {rejected} rejected"
    );
}

/// The fields Citadel adds to the FEN (B.10: castling `WEwe`, the en-passant squares of a long
/// step as a list, the prisoners `YQyq` in a field of their own), filled at random on positions
/// of both boards, many of them just after a double or triple step: the readers never panic,
/// accept and reject consistently, and what they accept round-trips.
#[test]
pub(crate) fn fuzz_citadel_fields() {
    const LETTERS: &[char] = &[
        'W', 'E', 'w', 'e', 'Y', 'Q', 'y', 'q', 'K', 'k', '-', ',', 'x', '0', 'é',
    ];
    let mut rng = Rng::new(0xC17A);
    let (mut accepted, mut rejected, mut with_ep) = (0, 0, 0);
    for v in [Variant::Citadel8, Variant::Citadel9] {
        // Positions, and the passed squares of the long step that led to each (if any).
        let mut seeds: Vec<(String, Vec<String>)> = Vec::new();
        for _ in 0..200 {
            let mut pos = Position::startpos(v);
            let mut passed = Vec::new();
            for _ in 0..rng.below(30) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let long: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| m.kind() == MoveKind::DoubleStep)
                    .collect();
                let m = if !long.is_empty() && rng.chance(1, 2) {
                    *rng.pick(&long)
                } else {
                    *rng.pick(moves.as_slice())
                };
                let g = v.spec().geometry;
                passed = if m.kind() == MoveKind::DoubleStep {
                    let (f, r0, r1) = (g.file(m.from()), g.rank(m.from()), g.rank(m.to()));
                    let step = if r1 > r0 { 1 } else { -1 };
                    (1..(r1 - r0).abs())
                        .map(|i| g.square_name(g.square(f, r0 + step * i).unwrap_or(m.to())))
                        .collect()
                } else {
                    Vec::new()
                };
                pos.play_unchecked(m);
            }
            let fen = pos.fen();
            seeds.push((fen, passed));
        }
        for _ in 0..4_000 {
            let (fen, passed) = rng.pick(&seeds).clone();
            let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
            let noise = |rng: &mut Rng| -> String { (0..rng.below(6)).map(|_| *rng.pick(LETTERS)).collect() };
            let subset = |rng: &mut Rng, valid: &str| -> String {
                let kept: String = valid.chars().filter(|_| rng.chance(2, 3)).collect();
                if kept.is_empty() {
                    "-".to_string()
                } else {
                    kept
                }
            };
            match rng.below(6) {
                0 => fields[2] = subset(&mut rng, "WEwe"),
                1 => fields[4] = subset(&mut rng, "YQyq"),
                2 => {
                    // The passed squares, all, some, reversed or with another square.
                    let mut list = passed.clone();
                    match rng.below(4) {
                        0 => list.reverse(),
                        1 => list.truncate(rng.below(list.len() + 1)),
                        2 => list.push(rng.pick(&["e3", "e4", "e6", "e7", "d3", "a9", "i1"]).to_string()),
                        _ => {}
                    }
                    fields[3] = if list.is_empty() {
                        "-".to_string()
                    } else {
                        list.join(",")
                    };
                }
                3 => {
                    let i = 2 + rng.below(3);
                    fields[i] = noise(&mut rng);
                }
                4 => {
                    // A field dropped or one too many.
                    if rng.chance(1, 2) {
                        fields.remove(2 + rng.below(3));
                    } else {
                        fields.insert(4, subset(&mut rng, "YQyq"));
                    }
                }
                _ => {}
            }
            let text = fields.join(" ");
            if read_fen_consistently(v, &text) {
                accepted += 1;
                if text.split(' ').nth(3).is_some_and(|f| f != "-") {
                    with_ep += 1;
                }
            } else {
                rejected += 1;
            }
        }
    }
    eprintln!("Citadel fields fuzz: {accepted} accepted ({with_ep} with en passant), {rejected} rejected");
    assert!(
        accepted > 1000 && rejected > 1000 && with_ep > 50,
        "{accepted} / {with_ep} / {rejected}"
    );
}

#[test]
pub(crate) fn fuzz_setup_validation_never_panics() {
    let mut rng = Rng::new(0xBEEF);
    let kinds = PieceKind::ALL;
    let mut accepted = 0;
    for _ in 0..20_000 {
        let v = *rng.pick(&Variant::ALL);
        let cells = v.spec().geometry.cells();
        let mut board = Vec::new();
        // Kings are usually there, so that the later checks are reached.
        if rng.chance(4, 5) {
            for color in Color::ALL {
                let s = Square(rng.below(cells) as u8);
                board.push((
                    s,
                    Piece {
                        color,
                        kind: PieceKind::King,
                    },
                ));
            }
        }
        for _ in 0..rng.below(12) {
            let s = if rng.chance(1, 10) {
                Square(rng.next_u64() as u8)
            } else {
                Square(rng.below(cells) as u8)
            };
            let color = if rng.chance(1, 2) { Color::White } else { Color::Black };
            board.push((
                s,
                Piece {
                    color,
                    kind: *rng.pick(&kinds),
                },
            ));
        }
        let castling: Vec<char> = (0..rng.below(4))
            .map(|_| *rng.pick(&['K', 'Q', 'k', 'q', 'K', 'X', 'é', '-']))
            .collect();
        let number = |rng: &mut Rng| match rng.below(4) {
            0 => u32::MAX,
            1 => u32::MAX - 1,
            _ => rng.below(200) as u32,
        };
        let setup = Setup {
            board,
            turn: if rng.chance(1, 2) { Color::White } else { Color::Black },
            castling,
            ep: match rng.below(4) {
                0 => Vec::new(),
                1 => vec![Square(rng.next_u64() as u8)],
                2 => vec![Square(rng.below(cells) as u8)],
                // Several squares, as a longer first step passes (Citadel's triple step).
                _ => (0..1 + rng.below(3)).map(|_| Square(rng.below(cells) as u8)).collect(),
            },
            halfmove: number(&mut rng),
            fullmove: number(&mut rng),
            rendezvous: match rng.below(3) {
                0 => None,
                _ => Some((rng.chance(1, 2), rng.chance(1, 2))),
            },
            rule_fields: Vec::new(),
        };
        for v in Variant::ALL {
            if let Ok(pos) = Position::from_setup(v, &setup) {
                check_accepted(&pos);
                accepted += 1;
            }
        }
    }
    eprintln!("setup fuzz: {accepted} accepted");
    assert!(accepted > 100);
}

pub(crate) const MOVE_ALPHABET: &[char] = &[
    'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'p', 'z', '0', '1', '1', '2', '3', '5', '9', '1', '0',
    'q', 'r', 'n', 's', 'w', 'K', 'Q', 'R', 'B', 'N', 'S', 'F', 'W', 'C', 'P', 'O', 'x', '=', '+', '#', '~', '-', '!',
    '?', ' ', 'é', '😀', '\0',
];

#[test]
pub(crate) fn fuzz_move_readers_never_panic() {
    let mut rng = Rng::new(0xCAFE);
    let positions = sample_positions(&mut rng);
    let mut uci_ok = 0;
    let mut san_ok = 0;
    for i in 0..40_000 {
        let pos = rng.pick(&positions).clone();
        let moves = pos.legal_moves();
        let text = match i % 4 {
            0 => random_text(&mut rng, MOVE_ALPHABET, 8),
            1 => random_bytes(&mut rng, 8),
            _ if moves.is_empty() => "0000".to_string(),
            _ => mutate(&pos.uci(*rng.pick(moves.as_slice())), &mut rng),
        };
        if let Ok(m) = text.parse::<UciMove>() {
            assert_eq!(m.to_string().parse::<UciMove>(), Ok(m), "'{text}'");
        }
        if let Ok(m) = pos.parse_uci(&text) {
            assert!(moves.contains(m), "{}: '{text}' gives an illegal move", pos.fen());
            assert_eq!(pos.uci(m), text, "{}", pos.fen());
            uci_ok += 1;
        }
        // SAN is slower to read: fewer inputs.
        if i % 8 == 0 {
            let text = match i % 3 {
                0 => random_text(&mut rng, MOVE_ALPHABET, 8),
                1 => random_bytes(&mut rng, 8),
                _ if moves.is_empty() => "O-O".to_string(),
                _ => mutate(&pos.san(*rng.pick(moves.as_slice())), &mut rng),
            };
            if let Ok(m) = pos.parse_san(&text) {
                assert!(moves.contains(m), "{}: '{text}' gives an illegal move", pos.fen());
                san_ok += 1;
            }
        }
    }
    eprintln!("move fuzz: {uci_ok} UCI and {san_ok} SAN texts accepted");
    assert!(uci_ok > 0 && san_ok > 0);
}
