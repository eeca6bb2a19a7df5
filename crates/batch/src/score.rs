//! A match's score from one side's point of view: wins, draws and losses, the score rate
//! (win 1, draw ½) with its 95% confidence interval, and the same as an Elo difference, so that
//! "A is stronger than B" is a measured claim in every tool's match report.

/// Wins, draws and losses of one side.
///
/// ```
/// let s = batch::MatchScore { wins: 60, draws: 20, losses: 20 };
/// assert_eq!(s.games(), 100);
/// assert!((s.rate() - 0.7).abs() < 1e-12);
/// let (low, high) = s.ci95();
/// assert!(low < 0.7 && 0.7 < high);
/// assert!(s.elo() > 140.0 && s.elo() < 150.0);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct MatchScore {
    /// Games won.
    pub wins: usize,
    /// Games drawn.
    pub draws: usize,
    /// Games lost.
    pub losses: usize,
}

impl MatchScore {
    /// Games played.
    pub fn games(&self) -> usize {
        self.wins + self.draws + self.losses
    }

    /// The score rate: a win counts 1, a draw ½ (0.5 before any game).
    pub fn rate(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => (self.wins as f64 + self.draws as f64 / 2.0) / n as f64,
        }
    }

    /// 95% confidence interval of the score rate (normal approximation with the binomial
    /// variance `r(1 − r)/n`, which draws only make wider than needed; clamped to 0..1).
    pub fn ci95(&self) -> (f64, f64) {
        let n = self.games().max(1) as f64;
        let r = self.rate();
        let half = 1.96 * (r * (1.0 - r) / n).sqrt();
        ((r - half).max(0.0), (r + half).min(1.0))
    }

    /// The score rate as an Elo difference, clamped to ±1000 (a clean sweep has no finite one).
    pub fn elo(&self) -> f64 {
        elo_of(self.rate())
    }

    /// The 95% interval of [`elo`](Self::elo), from that of the score rate.
    pub fn elo_ci95(&self) -> (f64, f64) {
        let (low, high) = self.ci95();
        (elo_of(low), elo_of(high))
    }

    /// One line for a report: `W wins, D draws, L losses: score 61.2% (95% interval 56.4–66.0%),
    /// Elo +80 (+45..+116)`.
    pub fn summary(&self) -> String {
        let (low, high) = self.ci95();
        let (elo_low, elo_high) = self.elo_ci95();
        format!(
            "{} wins, {} draws, {} losses: score {:.1}% (95% interval {:.1}–{:.1}%), Elo {:+.0} ({:+.0}..{:+.0})",
            self.wins,
            self.draws,
            self.losses,
            100.0 * self.rate(),
            100.0 * low,
            100.0 * high,
            self.elo(),
            elo_low,
            elo_high
        )
    }
}

fn elo_of(rate: f64) -> f64 {
    if rate <= 0.0 {
        -1000.0
    } else if rate >= 1.0 {
        1000.0
    } else {
        // Rounded to whole points, without a "-0".
        (-400.0 * (1.0 / rate - 1.0).log10())
            .clamp(-1000.0, 1000.0)
            .round()
            + 0.0
    }
}
