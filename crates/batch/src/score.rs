//! A match's score from one side's point of view: wins, draws and losses, the score rate
//! (win 1, draw ½) with its 95% confidence interval, and the same as an Elo difference, so that
//! "A is stronger than B" is a measured claim in every tool's match report; and how long each
//! side took to answer ([`AnswerTimes`]), so that a score comes with the time it cost and a
//! clock that held.

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

/// 95% confidence interval of a score rate measured in pairs of games (the same opening
/// played once with each colour), from the spread of the pairs' own scores (each 0 to 1).
///
/// The two games of a pair share their opening, so their results are not independent: an
/// opening that favours one colour gives each side one win, and deterministic players repeat
/// whole games when an opening comes back. The interval of [`MatchScore::ci95`] treats every
/// game as independent; this one counts pairs, which is right whichever way the games of a pair
/// lean (the "pentanomial" estimate of engine testing). Normal approximation, clamped to 0..1;
/// fewer than two pairs give 0..1.
///
/// ```
/// // Every pair split 1–1: the rate is exactly ½, with no spread between pairs.
/// assert_eq!(batch::paired_ci95(&[0.5; 100]), (0.5, 0.5));
/// // Half the pairs won outright, half lost: a wide interval around ½.
/// let mixed: Vec<f64> = (0..100).map(|k| (k % 2) as f64).collect();
/// let (low, high) = batch::paired_ci95(&mixed);
/// assert!(low < 0.41 && high > 0.59);
/// ```
pub fn paired_ci95(pair_rates: &[f64]) -> (f64, f64) {
    let n = pair_rates.len();
    if n < 2 {
        return (0.0, 1.0);
    }
    let mean = pair_rates.iter().sum::<f64>() / n as f64;
    let variance = pair_rates.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let half = 1.96 * (variance / n as f64).sqrt();
    ((mean - half).max(0.0), (mean + half).min(1.0))
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

/// How long one side of a match took to answer its moves: the count, the total, the slowest,
/// and how many came later than a limit (the time per move plus a grace), the figures that say
/// whether a score was bought with time and whether the clock held.
///
/// ```
/// use std::time::Duration;
/// let ms = Duration::from_millis;
/// let mut t = batch::AnswerTimes::default();
/// t.add(ms(300), Some(ms(350)));
/// t.add(ms(360), Some(ms(350)));
/// let mut all = batch::AnswerTimes::default();
/// all.merge(&t);
/// assert_eq!((all.moves, all.late), (2, 1));
/// assert_eq!(all.slowest, ms(360));
/// assert_eq!(all.summary(), "0.7 s over 2 moves (330 ms a move), the slowest 360 ms, 1 late");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AnswerTimes {
    /// Moves answered.
    pub moves: usize,
    /// Time of all answers.
    pub total: std::time::Duration,
    /// The slowest answer.
    pub slowest: std::time::Duration,
    /// Answers later than their limit.
    pub late: usize,
}

impl AnswerTimes {
    /// One answer that took `took`, late if it came after `limit`.
    pub fn add(&mut self, took: std::time::Duration, limit: Option<std::time::Duration>) {
        self.moves += 1;
        self.total += took;
        self.slowest = self.slowest.max(took);
        self.late += usize::from(limit.is_some_and(|l| took > l));
    }

    /// Adds the answers of `other` (another game's).
    pub fn merge(&mut self, other: &AnswerTimes) {
        self.moves += other.moves;
        self.total += other.total;
        self.slowest = self.slowest.max(other.slowest);
        self.late += other.late;
    }

    /// One phrase for a report: `61.2 s over 204 moves (300 ms a move), the slowest 312 ms,
    /// 0 late`.
    pub fn summary(&self) -> String {
        let mean = self.total.as_secs_f64() * 1000.0 / self.moves.max(1) as f64;
        format!(
            "{:.1} s over {} moves ({mean:.0} ms a move), the slowest {} ms, {} late",
            self.total.as_secs_f64(),
            self.moves,
            self.slowest.as_millis(),
            self.late
        )
    }
}
