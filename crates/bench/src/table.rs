//! Result tables: printed aligned for people, or as JSON for scripts.

use serde::Serialize;

/// One benchmark's results.
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    /// What was measured, with its source.
    pub title: String,
    /// Column headings.
    pub columns: Vec<String>,
    /// Cells, already formatted.
    pub rows: Vec<Vec<String>>,
    /// How it was measured; what to compare with.
    pub notes: Vec<String>,
}

impl Table {
    /// An empty table.
    pub fn new(title: impl Into<String>, columns: &[&str]) -> Table {
        Table {
            title: title.into(),
            columns: columns.iter().map(|c| (*c).to_owned()).collect(),
            rows: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Adds a row.
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// Adds a note line.
    pub fn note(&mut self, text: impl Into<String>) {
        self.notes.push(text.into());
    }

    /// The table as aligned text.
    pub fn render(&self) -> String {
        let mut widths: Vec<usize> = self.columns.iter().map(|c| c.chars().count()).collect();
        for row in &self.rows {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let line = |cells: &[String]| {
            let parts: Vec<String> = cells
                .iter()
                .zip(&widths)
                .map(|(c, w)| format!("{c:<w$}", w = *w))
                .collect();
            format!("  {}\n", parts.join("  ").trim_end())
        };
        let mut out = format!("{}\n", self.title);
        out += &line(&self.columns);
        out += &format!(
            "  {}\n",
            widths
                .iter()
                .map(|w| "-".repeat(*w))
                .collect::<Vec<_>>()
                .join("  ")
        );
        for row in &self.rows {
            out += &line(row);
        }
        for n in &self.notes {
            out += &format!("  note: {n}\n");
        }
        out
    }
}

/// Median of a sample (sorts it).
pub fn median(values: &mut [f64]) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        0.5 * (values[n / 2 - 1] + values[n / 2])
    }
}

/// Mean of a sample.
pub fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len().max(1) as f64
}
