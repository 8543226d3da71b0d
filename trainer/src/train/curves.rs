//! Loss curves as CSV and as a self-contained SVG chart.

use std::fmt::Write as _;

use engine::cli::escape_html as escape;

use super::checkpoint::CurvePoint;

/// The curve as CSV, one row per epoch.
pub fn csv(points: &[CurvePoint]) -> String {
    let mut out = String::from("epoch,step,positions,train_loss,val_loss,lr,seconds\n");
    for p in points {
        let val = p.val_loss.map(|v| format!("{v:.6}")).unwrap_or_default();
        let _ = writeln!(
            out,
            "{},{},{},{:.6},{},{:.3e},{:.1}",
            p.epoch, p.step, p.positions, p.train_loss, val, p.lr, p.seconds
        );
    }
    out
}

/// The curve as an SVG line chart: training loss (blue) and validation loss (orange) per epoch.
pub fn svg(points: &[CurvePoint], title: &str) -> String {
    let (w, h) = (720.0f64, 420.0f64);
    let (left, right, top, bottom) = (70.0, 20.0, 40.0, 50.0);
    let values: Vec<f64> = points
        .iter()
        .flat_map(|p| std::iter::once(p.train_loss).chain(p.val_loss))
        .filter(|v| v.is_finite())
        .collect();
    let (mut lo, mut hi) = values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| (a.min(v), b.max(v)));
    if !lo.is_finite() {
        (lo, hi) = (0.0, 1.0);
    }
    if hi - lo < 1e-9 {
        hi = lo + 1e-3;
    }
    let pad = (hi - lo) * 0.05;
    let (lo, hi) = (lo - pad, hi + pad);
    let max_epoch = points.iter().map(|p| p.epoch).max().unwrap_or(1).max(1) as f64;
    let x = |e: f64| {
        left + (w - left - right)
            * if max_epoch <= 1.0 {
                0.5
            } else {
                (e - 1.0) / (max_epoch - 1.0)
            }
    };
    let y = |v: f64| top + (h - top - bottom) * (1.0 - (v - lo) / (hi - lo));
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#ffffff"/>"##);
    let _ = writeln!(s, r#"<text x="{left}" y="24" font-size="15">{}</text>"#, escape(title));
    for i in 0..=4 {
        let v = lo + (hi - lo) * f64::from(i) / 4.0;
        let yy = y(v);
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="#dddddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{v:.4}</text>"##,
            w - right,
            left - 6.0,
            yy + 4.0
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">epoch (1 to {max_epoch})</text>"#,
        (left + w - right) / 2.0,
        h - 14.0
    );
    let line = |s: &mut String, pts: Vec<(f64, f64)>, color: &str| {
        if pts.is_empty() {
            return;
        }
        let path: Vec<String> = pts.iter().map(|(e, v)| format!("{:.1},{:.1}", x(*e), y(*v))).collect();
        let _ = writeln!(
            s,
            r#"<polyline fill="none" stroke="{color}" stroke-width="2" points="{}"/>"#,
            path.join(" ")
        );
        for (e, v) in pts {
            let _ = writeln!(s, r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{color}"/>"#, x(e), y(v));
        }
    };
    line(
        &mut s,
        points.iter().map(|p| (p.epoch as f64, p.train_loss)).collect(),
        "#1f77b4",
    );
    line(
        &mut s,
        points
            .iter()
            .filter_map(|p| p.val_loss.map(|v| (p.epoch as f64, v)))
            .collect(),
        "#ff7f0e",
    );
    let lx = w - right - 170.0;
    let _ = writeln!(
        s,
        r##"<rect x="{lx}" y="34" width="12" height="3" fill="#1f77b4"/><text x="{:.1}" y="40">training loss</text>"##,
        lx + 18.0
    );
    let _ = writeln!(
        s,
        r##"<rect x="{lx}" y="52" width="12" height="3" fill="#ff7f0e"/><text x="{:.1}" y="58">validation loss</text>"##,
        lx + 18.0
    );
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points() -> Vec<CurvePoint> {
        (1..=3)
            .map(|e| CurvePoint {
                epoch: e,
                step: e * 10,
                positions: e * 1000,
                train_loss: 0.1 / e as f64,
                val_loss: (e != 2).then(|| 0.12 / e as f64),
                lr: 1e-3,
                seconds: e as f64,
            })
            .collect()
    }

    #[test]
    fn csv_has_a_row_per_epoch() {
        let text = csv(&points());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[1], "1,10,1000,0.100000,0.120000,1.000e-3,1.0");
        assert_eq!(lines[2], "2,20,2000,0.050000,,1.000e-3,2.0");
    }

    #[test]
    fn svg_is_well_formed_with_both_lines() {
        let text = svg(&points(), "a <b> & c");
        assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"));
        assert_eq!(text.matches("<polyline").count(), 2);
        assert!(text.contains("a &lt;b&gt; &amp; c"));
        assert_eq!(svg(&[], "empty").matches("<polyline").count(), 0);
    }
}
