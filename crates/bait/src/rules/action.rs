//! The player's actions (`U D L R N`) and the engine's time limit: what an agent chooses and a
//! solution is written in.

/// The engine's time limit: the game ends after the action at tick 1000.
pub const MAX_TIMESTEPS: u32 = 1000;

/// A player action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Up (row − 1).
    Up,
    /// Down (row + 1).
    Down,
    /// Left (column − 1).
    Left,
    /// Right (column + 1).
    Right,
    /// No move (still one tick).
    Nil,
}

impl Action {
    /// The four moves, in the order searches try them.
    pub const MOVES: [Action; 4] = [Action::Up, Action::Down, Action::Left, Action::Right];

    /// The letter `U D L R N`.
    pub fn letter(self) -> char {
        match self {
            Action::Up => 'U',
            Action::Down => 'D',
            Action::Left => 'L',
            Action::Right => 'R',
            Action::Nil => 'N',
        }
    }

    /// Parses a letter.
    pub fn from_letter(c: char) -> Option<Action> {
        Some(match c {
            'U' => Action::Up,
            'D' => Action::Down,
            'L' => Action::Left,
            'R' => Action::Right,
            'N' => Action::Nil,
            _ => return None,
        })
    }

    /// The (row, column) step.
    pub(crate) fn delta(self) -> (i32, i32) {
        match self {
            Action::Up => (-1, 0),
            Action::Down => (1, 0),
            Action::Left => (0, -1),
            Action::Right => (0, 1),
            Action::Nil => (0, 0),
        }
    }
}

/// Parses an action string (`U D L R N`, whitespace ignored).
pub fn parse_actions(s: &str) -> Result<Vec<Action>, String> {
    s.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| {
            Action::from_letter(c).ok_or_else(|| format!("`{c}` is not an action (U D L R N)"))
        })
        .collect()
}

/// Formats actions as letters.
pub fn action_string(actions: &[Action]) -> String {
    actions.iter().map(|a| a.letter()).collect()
}
