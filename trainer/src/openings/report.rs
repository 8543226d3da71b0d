//! `report.html`: one self-contained page (inline CSS, JavaScript and SVG; no external files and
//! no network) with the summary, a bar chart of the first moves, board diagrams of the main
//! lines and a sortable table of the lines.

use std::{collections::HashSet, fmt::Write as _};

use engine::rules::{Bitboard, Color, Move, Position, Square, SquareMark};

use super::tree::{numbered_san, Line, Tree};

/// What the report shows besides the tree.
pub struct ReportInput<'a> {
    /// The tree.
    pub tree: &'a Tree,
    /// The lines that passed `--min-games`, in tree order.
    pub lines: &'a [Line],
    /// `tree.json`'s settings and counts, as `(label, value)` rows.
    pub summary: Vec<(String, String)>,
    /// At most this many lines in the table (the most played).
    pub max_rows: usize,
    /// First moves in the chart.
    pub chart_moves: usize,
    /// Main lines drawn as diagrams.
    pub diagrams: usize,
}

/// Escapes text for HTML (the workspace's one escaping).
pub use engine::cli::escape_html as esc;

const STYLE: &str = r#"
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 1.5em auto; max-width: 1200px; padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; margin-top: 1.8em; border-bottom: 1px solid #ccc; padding-bottom: 0.2em; }
table.summary td { padding: 0.1em 1.2em 0.1em 0; vertical-align: top; }
table.summary td:first-child { color: #555; }
.note { color: #555; font-size: 0.92em; }
.ci { color: #777; font-size: 0.88em; }
table.lines { border-collapse: collapse; font-size: 0.9em; width: 100%; }
table.lines th { background: #eee; cursor: pointer; user-select: none; position: sticky; top: 0; padding: 0.3em 0.5em; text-align: left; white-space: nowrap; }
table.lines th.num, table.lines td.num { text-align: right; }
table.lines th.asc::after { content: " \25B2"; }
table.lines th.desc::after { content: " \25BC"; }
table.lines td { padding: 0.2em 0.5em; border-bottom: 1px solid #eee; }
table.lines tr:hover td { background: #fafad2; }
td.san { font-family: ui-monospace, Menlo, Consolas, monospace; }
td.uci { font-family: ui-monospace, Menlo, Consolas, monospace; color: #666; }
.diagrams { display: flex; flex-wrap: wrap; gap: 1.5em; }
.diagram { max-width: 360px; }
.diagram .caption { font-size: 0.88em; margin-top: 0.3em; }
.diagram .caption .san { font-family: ui-monospace, Menlo, Consolas, monospace; }
svg text { font-family: system-ui, sans-serif; }
.sq-light { fill: #f0d9b5; }
.sq-dark { fill: #b58863; }
.sq-citadel { fill: #9fb4d3; stroke: #2c4a7a; stroke-width: 2; }
.sq-last { fill: rgba(255, 214, 0, 0.45); }
.eye { fill: #fff; stroke: #5a2d82; stroke-width: 1.5; }
.eye-pupil { fill: #5a2d82; }
.pc-white { fill: #fff; stroke: #222; stroke-width: 1.2; }
.pc-black { fill: #222; stroke: #000; stroke-width: 1.2; }
.pc-white-text { fill: #111; font-weight: 700; font-size: 14px; }
.pc-black-text { fill: #fff; font-weight: 700; font-size: 14px; }
.coord { fill: #666; font-size: 10px; }
.bar-w { fill: #f7f7f7; stroke: #777; stroke-width: 0.6; }
.bar-d { fill: #a9a9a9; }
.bar-b { fill: #333; }
.bar-u { fill: #d9c9a3; }
.bar-label { font-size: 13px; fill: #222; }
.bar-move { font-size: 13px; font-weight: 600; fill: #222; font-family: ui-monospace, Menlo, Consolas, monospace; }
input.filter { margin: 0.5em 0; padding: 0.3em; width: 20em; }
"#;

const SCRIPT: &str = r#"
(function () {
  function value(cell, numeric) {
    var v = cell.getAttribute('data-v');
    if (v === null) v = cell.textContent;
    if (!numeric) return v;
    return v === '' ? null : parseFloat(v);
  }
  document.querySelectorAll('table.lines').forEach(function (table) {
    var heads = table.querySelectorAll('th');
    heads.forEach(function (th, col) {
      th.title = 'click to sort';
      th.addEventListener('click', function () {
        var numeric = th.classList.contains('num');
        var asc = th.classList.contains('desc') || (!th.classList.contains('asc') && !numeric);
        heads.forEach(function (h) { h.classList.remove('asc', 'desc'); });
        th.classList.add(asc ? 'asc' : 'desc');
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = value(a.cells[col], numeric), y = value(b.cells[col], numeric);
          if (x === null && y === null) return 0;
          if (x === null) return 1;
          if (y === null) return -1;
          var c = numeric ? x - y : String(x).localeCompare(String(y));
          return asc ? c : -c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
  var filter = document.getElementById('filter');
  if (filter) {
    filter.addEventListener('input', function () {
      var text = filter.value.trim().toLowerCase();
      document.querySelectorAll('table.lines tbody tr').forEach(function (row) {
        row.style.display = !text || row.textContent.toLowerCase().indexOf(text) >= 0 ? '' : 'none';
      });
    });
  }
})();
"#;

/// `1 game`, `12 games`.
fn games(n: u64) -> String {
    if n == 1 {
        "1 game".to_string()
    } else {
        format!("{n} games")
    }
}

fn pct(x: Option<f64>) -> String {
    x.map_or("-".to_string(), |v| format!("{v:.1}%"))
}

fn pawns(cp: Option<f64>) -> String {
    cp.map_or("-".to_string(), |v| format!("{:+.2}", v / 100.0))
}

/// The page.
pub fn render(input: &ReportInput) -> String {
    let tree = input.tree;
    let name = tree.variant.spec().name;
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>Opening statistics: {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        esc(name)
    );
    let _ = writeln!(h, "<h1>Opening statistics: {}</h1>", esc(name));
    let _ = writeln!(
        h,
        "<p class=\"note\">Scores are White's: (White wins + draws / 2) / finished games, with \
         a 95 % confidence interval in brackets. Evaluations are the mean engine score after the line, in pawns from White's view, over \
         the games whose records carry one.</p>"
    );

    h.push_str("<h2>Summary</h2>\n<table class=\"summary\">\n");
    for (label, value) in &input.summary {
        let _ = writeln!(h, "<tr><td>{}</td><td>{}</td></tr>", esc(label), esc(value));
    }
    h.push_str("</table>\n");

    // The first root with games: the standard start when there is one.
    let main_root = (0..tree.roots.len()).find(|&r| input.lines.iter().any(|l| l.root == r));
    if let Some(r) = main_root {
        let root = &tree.roots[r];
        let start_note = if root.standard {
            String::new()
        } else {
            format!(" (from {})", esc(&root.start.fen()))
        };
        let _ = writeln!(h, "<h2>First moves{start_note}</h2>");
        h.push_str(&first_move_chart(input, r));
        let _ = writeln!(h, "<h2>Main lines{start_note}</h2>");
        h.push_str(
            "<p class=\"note\">For each of the most played first moves, the most played continuation \
             at every ply, to the depth of the tree. Citadels are outlined in blue, the All-Seeing \
             Eye (Egyptian Eye) is drawn as an eye, the last move is highlighted.</p>\n<div class=\"diagrams\">\n",
        );
        for (line_uci, line_san, node) in main_lines(input, r) {
            let Some(pos) = tree.position_after(r, &line_uci) else {
                continue;
            };
            let last = tree.nodes[node].mv;
            let s = &tree.nodes[node].stats;
            let _ = writeln!(
                h,
                "<div class=\"diagram\">{}<div class=\"caption\"><span class=\"san\">{}</span><br>{}, \
                 +{} ={} -{}, score {}, eval {}</div></div>",
                board_svg(&pos, Some(last)),
                esc(&line_san),
                games(s.games),
                s.white_wins,
                s.draws,
                s.black_wins,
                pct(s.score_pct()),
                pawns(s.mean_eval())
            );
        }
        h.push_str("</div>\n");
    } else {
        h.push_str("<p>No line has enough games to be shown.</p>\n");
    }

    lines_table(&mut h, input);
    let _ = write!(h, "<script>{SCRIPT}</script>\n</body>\n</html>\n");
    h
}

/// The nodes of a root that passed `--min-games`.
fn listed_nodes(input: &ReportInput, root: usize) -> HashSet<usize> {
    input.lines.iter().filter(|l| l.root == root).map(|l| l.node).collect()
}

/// The lines for the diagrams: the main line after each of the most played first moves.
fn main_lines(input: &ReportInput, root: usize) -> Vec<(String, String, usize)> {
    let tree = input.tree;
    let start = &tree.roots[root].start;
    let listed_nodes = listed_nodes(input, root);
    let listed = |node: usize| listed_nodes.contains(&node);
    let mut out = Vec::new();
    for &first in tree.nodes[tree.roots[root].node]
        .children
        .iter()
        .filter(|&&c| listed(c))
        .take(input.diagrams)
    {
        let mut node = first;
        let mut uci = vec![tree.nodes[node].uci.clone()];
        let mut san = vec![tree.nodes[node].san.clone()];
        while let Some(&next) = tree.nodes[node].children.iter().find(|&&c| listed(c)) {
            node = next;
            uci.push(tree.nodes[node].uci.clone());
            san.push(tree.nodes[node].san.clone());
        }
        out.push((uci.join(" "), numbered_san(start, &san), node));
    }
    out
}

/// Horizontal bars: one per first move, its length the games, split into White wins, draws,
/// Black wins and unfinished games.
fn first_move_chart(input: &ReportInput, root: usize) -> String {
    let tree = input.tree;
    let listed_nodes = listed_nodes(input, root);
    let listed = |node: usize| listed_nodes.contains(&node);
    let moves: Vec<usize> = tree.nodes[tree.roots[root].node]
        .children
        .iter()
        .copied()
        .filter(|&c| listed(c))
        .take(input.chart_moves)
        .collect();
    if moves.is_empty() {
        return "<p>No first move has enough games.</p>\n".to_string();
    }
    let max = moves
        .iter()
        .map(|&m| tree.nodes[m].stats.games)
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let (label_w, bar_w, text_w, row_h, top) = (70.0, 480.0, 300.0, 24.0, 26.0);
    let width = label_w + bar_w + text_w;
    let height = top + row_h * moves.len() as f64 + 6.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" \
         role=\"img\" aria-label=\"first moves by games\">"
    );
    // Legend.
    let legend = [
        ("bar-w", "White wins"),
        ("bar-d", "draws"),
        ("bar-b", "Black wins"),
        ("bar-u", "unfinished"),
    ];
    for (i, (class, text)) in legend.iter().enumerate() {
        let x = label_w + i as f64 * 110.0;
        let _ = writeln!(
            s,
            "<rect class=\"{class}\" x=\"{x}\" y=\"4\" width=\"14\" height=\"12\"/>\
             <text class=\"bar-label\" x=\"{}\" y=\"14\">{text}</text>",
            x + 18.0
        );
    }
    for (i, &m) in moves.iter().enumerate() {
        let n = &tree.nodes[m];
        let st = &n.stats;
        let y = top + i as f64 * row_h;
        let _ = writeln!(
            s,
            "<text class=\"bar-move\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
            label_w - 8.0,
            y + 15.0,
            esc(&n.san)
        );
        let total = bar_w * st.games as f64 / max;
        let mut x = label_w;
        for (class, count) in [
            ("bar-w", st.white_wins),
            ("bar-d", st.draws),
            ("bar-b", st.black_wins),
            ("bar-u", st.unfinished()),
        ] {
            if count == 0 {
                continue;
            }
            let w = total * count as f64 / st.games.max(1) as f64;
            let _ = writeln!(
                s,
                "<rect class=\"{class}\" x=\"{x:.1}\" y=\"{}\" width=\"{w:.1}\" height=\"{}\"><title>{} {count}</title></rect>",
                y + 3.0,
                row_h - 6.0,
                esc(&n.san)
            );
            x += w;
        }
        let _ = writeln!(
            s,
            "<text class=\"bar-label\" x=\"{}\" y=\"{}\">{}, score {}, eval {}</text>",
            label_w + total + 8.0,
            y + 15.0,
            games(st.games),
            pct(st.score_pct()),
            pawns(st.mean_eval())
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The board of a position: the grid with holes left blank, citadels outlined, the Eye drawn,
/// pieces as discs with their letters, the last move highlighted.
pub fn board_svg(pos: &Position, last: Option<Move>) -> String {
    let t = pos.tables();
    let g = t.geometry;
    let (w, hgt) = (g.width as i32, g.height as i32);
    let sq = 30;
    let left = 16;
    let width = left + w * sq + 2;
    let height = hgt * sq + 16;
    let citadels = t
        .spec
        .square_marks()
        .into_iter()
        .filter(|&(_, mark)| mark == SquareMark::Citadel)
        .fold(Bitboard::EMPTY, |acc, (sq, _)| acc | sq.bb());
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" \
         role=\"img\" aria-label=\"{}\">",
        esc(&pos.fen())
    );
    let highlighted: Vec<Square> = last
        .filter(|m| !m.is_null())
        .map(|m| vec![m.from(), m.to()])
        .unwrap_or_default();
    for rank in 0..hgt {
        for file in 0..w {
            let Some(square) = g.square(file, rank) else { continue };
            if !g.is_playable(square) {
                continue;
            }
            let x = left + file * sq;
            let y = (hgt - 1 - rank) * sq;
            let class = if citadels.has(square) {
                "sq-citadel"
            } else if g.is_dark(square) {
                "sq-dark"
            } else {
                "sq-light"
            };
            let name = g.square_name(square);
            let _ = write!(
                s,
                "<rect class=\"{class}\" x=\"{x}\" y=\"{y}\" width=\"{sq}\" height=\"{sq}\"><title>{name}{}</title></rect>",
                if citadels.has(square) { " (citadel)" } else { "" }
            );
            if highlighted.contains(&square) {
                let _ = write!(
                    s,
                    "<rect class=\"sq-last\" x=\"{x}\" y=\"{y}\" width=\"{sq}\" height=\"{sq}\"/>"
                );
            }
            let (cx, cy) = (x + sq / 2, y + sq / 2);
            if t.blocked.has(square) {
                let _ = write!(
                    s,
                    "<ellipse class=\"eye\" cx=\"{cx}\" cy=\"{cy}\" rx=\"11\" ry=\"7\"><title>{name}: the All-Seeing Eye</title></ellipse>\
                     <circle class=\"eye-pupil\" cx=\"{cx}\" cy=\"{cy}\" r=\"3.5\"/>"
                );
            }
            if let Some(p) = pos.piece_at(square) {
                let (disc, text) = match p.color {
                    Color::White => ("pc-white", "pc-white-text"),
                    Color::Black => ("pc-black", "pc-black-text"),
                };
                let _ = write!(
                    s,
                    "<circle class=\"{disc}\" cx=\"{cx}\" cy=\"{cy}\" r=\"12\"/>\
                     <text class=\"{text}\" x=\"{cx}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                    cy + 5,
                    t.letter(p.kind)
                );
            }
        }
        s.push('\n');
        let _ = writeln!(
            s,
            "<text class=\"coord\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            left / 2,
            (hgt - 1 - rank) * sq + sq / 2 + 4,
            rank + 1
        );
    }
    for file in 0..w {
        let _ = writeln!(
            s,
            "<text class=\"coord\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            left + file * sq + sq / 2,
            hgt * sq + 12,
            (b'a' + file as u8) as char
        );
    }
    s.push_str("</svg>");
    s
}

/// The sortable table of the most played lines.
fn lines_table(h: &mut String, input: &ReportInput) {
    let tree = input.tree;
    let several_roots = input.lines.iter().any(|l| l.root != 0);
    let mut shown: Vec<usize> = (0..input.lines.len()).collect();
    // The most played lines, ties in tree order (a line before its longer lines).
    shown.sort_by(|&a, &b| {
        input.lines[b]
            .stats
            .games
            .cmp(&input.lines[a].stats.games)
            .then(a.cmp(&b))
    });
    shown.truncate(input.max_rows);
    shown.sort_unstable();
    let _ = writeln!(h, "<h2>Lines</h2>");
    let _ = writeln!(
        h,
        "<p class=\"note\">{} of {} lines{}. Click a column header to sort; type to filter.</p>\n\
         <input id=\"filter\" class=\"filter\" type=\"search\" placeholder=\"filter lines, e.g. Nd4\">",
        shown.len(),
        input.lines.len(),
        if shown.len() < input.lines.len() {
            " (the most played; lines.csv has them all)"
        } else {
            ""
        }
    );
    h.push_str("<table class=\"lines\">\n<thead><tr><th class=\"num\">#</th>");
    if several_roots {
        h.push_str("<th>start</th>");
    }
    h.push_str(
        "<th class=\"num\">ply</th><th>line</th><th>UCI</th><th class=\"num\">games</th>\
         <th class=\"num\">White wins</th><th class=\"num\">draws</th><th class=\"num\">Black wins</th>\
         <th class=\"num\">score</th><th class=\"num\">eval (pawns)</th><th class=\"num\">eval games</th></tr></thead>\n<tbody>\n",
    );
    for (rank, &i) in shown.iter().enumerate() {
        let l = &input.lines[i];
        let s = &l.stats;
        let _ = write!(h, "<tr class=\"line-row\"><td class=\"num\">{}</td>", rank + 1);
        if several_roots {
            let _ = write!(h, "<td>{}</td>", esc(&tree.start_name(l.root)));
        }
        let opt = |x: Option<f64>| x.map_or(String::new(), |v| format!("{v}"));
        let _ = writeln!(
            h,
            "<td class=\"num\">{}</td><td class=\"san\">{}</td><td class=\"uci\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\" data-v=\"{}\">{}</td><td class=\"num\" data-v=\"{}\">{}</td><td class=\"num\">{}</td></tr>",
            l.ply,
            if l.ply == 0 { "(start)".to_string() } else { esc(&l.san) },
            esc(&l.uci),
            s.games,
            s.white_wins,
            s.draws,
            s.black_wins,
            opt(s.score_pct()),
            score_with_interval(s),
            opt(s.mean_eval()),
            pawns(s.mean_eval()),
            s.eval_games
        );
    }
    h.push_str("</tbody>\n</table>\n");
}

/// White's score with its 95 % interval, e.g. "54.0% (50.9-57.1)".
fn score_with_interval(s: &super::tree::Stats) -> String {
    match (s.score_pct(), s.score_interval()) {
        (Some(p), Some((lo, hi))) => format!("{p:.1}% <span class=\"ci\">({lo:.1}&ndash;{hi:.1})</span>"),
        _ => pct(s.score_pct()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::rules::Variant;

    #[test]
    fn boards_have_the_right_squares() {
        let pp = board_svg(&Position::startpos(Variant::PersianPrincess), None);
        assert_eq!(pp.matches("<rect class=\"sq-").count(), 85);
        assert_eq!(pp.matches("sq-citadel").count(), 4);
        assert_eq!(pp.matches("<circle class=\"pc-").count(), 2 * 20);
        assert!(!pp.contains("class=\"eye\""));
        let eye = board_svg(&Position::startpos(Variant::EgyptianEye), None);
        assert_eq!(eye.matches("class=\"eye\"").count(), 1);
        assert!(eye.contains("f6: the All-Seeing Eye"));
        let chess = board_svg(&Position::startpos(Variant::Chess), None);
        assert_eq!(chess.matches("<rect class=\"sq-").count(), 64);
        assert_eq!(chess.matches("sq-citadel").count(), 0);
        assert_eq!(chess.matches("<circle class=\"pc-").count(), 32);
    }

    #[test]
    fn escaping() {
        assert_eq!(esc("<a href=\"x\">&'"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
    }
}
