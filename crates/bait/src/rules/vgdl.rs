//! The subset of VGDL (the GVGAI game description language) that Bait uses, parsed into a rule
//! table the simulator executes.

/// The project's own description of Bait's rules (`inputs/bait/game.txt`), used when no
/// `--game` file is given.
pub const DEFAULT_GAME: &str = include_str!("../../../../inputs/bait/game.txt");

use batch::InputError;
use std::collections::HashMap;
use std::str::FromStr;

/// How a sprite class behaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Never moves by itself (walls, holes, doors).
    Immovable,
    /// Moves only when pushed (boxes, keys).
    Passive,
    /// The player's avatar: moves one cell per action.
    MovingAvatar,
}

/// A collision effect, applied to the first sprite of a pair (and the second for `killBoth`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// The first sprite returns to where it was at the start of the tick.
    StepBack,
    /// The first sprite dies.
    KillSprite,
    /// Both sprites die.
    KillBoth,
    /// The first sprite moves one cell in the direction the second one moved this tick.
    BounceForward,
    /// Every sprite returns to where it was at the start of the tick.
    UndoAll,
    /// The first sprite is replaced by a new sprite of the given type.
    TransformTo(usize),
}

/// One interaction: when a sprite matching `first` overlaps one matching `second`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Interaction {
    /// Type id written first.
    pub first: usize,
    /// Type id written second.
    pub second: usize,
    /// What happens.
    pub effect: Effect,
    /// Score added when it happens.
    pub score: i32,
}

/// `SpriteCounter`: the game ends when at most `limit` sprites of `stype` remain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Termination {
    /// Type id counted (with its descendants).
    pub stype: usize,
    /// Threshold.
    pub limit: usize,
    /// Whether ending this way is a win.
    pub win: bool,
}

/// A sprite type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpriteType {
    /// Its name.
    pub name: String,
    /// Its class.
    pub class: Class,
    /// Parent type id.
    pub parent: Option<usize>,
}

/// A parsed game description.
///
/// Supported: `BasicGame` with parameters; a `SpriteSet` tree (indentation gives the parent;
/// a child without a class inherits its parent's) with the classes `Immovable`, `Passive` and
/// `MovingAvatar`; a `LevelMapping` (`c > type`); an `InteractionSet` of `t1 t2 [t3 ...] >
/// effect [scoreChange=n] [stype=t]` with the effects `stepBack`, `killSprite`, `killBoth`,
/// `bounceForward`, `undoAll`, `transformTo`; and a `TerminationSet` of `SpriteCounter stype=t
/// limit=n win=True|False`. Anything else is an error naming the line, so a game that needs
/// more is refused rather than simulated wrongly.
///
/// Type sets follow the GVGAI parser's behaviour (spec §4.1): a sprite of type T matches rules
/// written for T, for T's ancestors *and* for T's descendants, which is why the level's `A`
/// (type `avatar`) matches `nokey` rules until it becomes `withkey`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// Sprite types; id 0 is always `wall`.
    pub types: Vec<SpriteType>,
    /// Level characters and the type each creates.
    pub mapping: HashMap<char, usize>,
    /// Interactions in the order the engine tests them (pairs by first appearance, each pair's
    /// effects in file order).
    pub interactions: Vec<Interaction>,
    /// Terminations in file order.
    pub terminations: Vec<Termination>,
    /// `matches[s][r]`: a sprite of type s matches rules written for type r.
    pub matches: Vec<Vec<bool>>,
}

impl Game {
    /// The id of a type name.
    pub fn type_id(&self, name: &str) -> Option<usize> {
        self.types.iter().position(|t| t.name == name)
    }

    /// Whether `t` is `ancestor` or descends from it (for counting sprites of a type).
    pub fn is_a(&self, t: usize, ancestor: usize) -> bool {
        let mut cur = Some(t);
        while let Some(c) = cur {
            if c == ancestor {
                return true;
            }
            cur = self.types[c].parent;
        }
        false
    }
}

/// An interaction line before type names are resolved: line, types, effect name, parameters.
type RawInteraction = (usize, Vec<String>, String, HashMap<String, String>);

fn params(words: &[&str], line: usize) -> Result<HashMap<String, String>, InputError> {
    words
        .iter()
        .map(|w| {
            w.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .ok_or_else(|| InputError::at(line, format!("`{w}` is not a key=value parameter")))
        })
        .collect()
}

impl FromStr for Game {
    type Err = InputError;

    /// Parses a game description.
    ///
    /// ```
    /// let text = "BasicGame\n  SpriteSet\n    avatar > MovingAvatar\n    goal > Immovable\n  InteractionSet\n    goal avatar > killSprite scoreChange=1\n  TerminationSet\n    SpriteCounter stype=goal limit=0 win=True\n";
    /// let g: bait::vgdl::Game = text.parse().unwrap();
    /// assert_eq!(g.types.len(), 3); // wall, avatar, goal
    /// assert_eq!(g.interactions.len(), 1);
    /// ```
    fn from_str(text: &str) -> Result<Game, InputError> {
        let mut types = vec![SpriteType {
            name: "wall".into(),
            class: Class::Immovable,
            parent: None,
        }];
        let mut mapping: HashMap<char, usize> = HashMap::new();
        let mut raw_interactions: Vec<RawInteraction> = Vec::new();
        let mut raw_terms: Vec<(usize, HashMap<String, String>)> = Vec::new();
        let mut section = "";
        let mut section_indent = 0;
        // Stack of (indent, type id) for the sprite tree.
        let mut stack: Vec<(usize, usize)> = Vec::new();
        let mut saw_header = false;
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw.split('#').next().unwrap_or("").trim_end_matches('\r');
            if line.trim().is_empty() {
                continue;
            }
            let indent = line.len() - line.trim_start().len();
            let content = line.trim();
            if !saw_header {
                let first = content.split_whitespace().next().unwrap_or("");
                if first != "BasicGame" {
                    return Err(InputError::at(
                        n,
                        format!("expected `BasicGame`, found `{first}`"),
                    ));
                }
                saw_header = true;
                continue;
            }
            if matches!(
                content,
                "SpriteSet" | "LevelMapping" | "InteractionSet" | "TerminationSet"
            ) {
                section = match content {
                    "SpriteSet" => "sprites",
                    "LevelMapping" => "mapping",
                    "InteractionSet" => "interactions",
                    _ => "terminations",
                };
                section_indent = indent;
                stack.clear();
                continue;
            }
            if indent <= section_indent {
                return Err(InputError::at(
                    n,
                    format!("`{content}` is outside any section"),
                ));
            }
            let (lhs, rhs) = content
                .split_once('>')
                .map(|(a, b)| (a.trim(), b.trim()))
                .unwrap_or((content, ""));
            match section {
                "sprites" => {
                    let name = lhs.to_string();
                    if lhs.is_empty() || lhs.contains(char::is_whitespace) {
                        return Err(InputError::at(n, format!("bad sprite name `{lhs}`")));
                    }
                    while stack.last().is_some_and(|&(ind, _)| ind >= indent) {
                        stack.pop();
                    }
                    let parent = stack.last().map(|&(_, id)| id);
                    let mut words = rhs.split_whitespace().peekable();
                    let class = match words.peek().copied() {
                        Some(w) if !w.contains('=') => {
                            words.next();
                            Some(match w {
                                "Immovable" => Class::Immovable,
                                "Passive" => Class::Passive,
                                "MovingAvatar" => Class::MovingAvatar,
                                other => {
                                    return Err(InputError::at(
                                        n,
                                        format!("sprite class `{other}` is not supported"),
                                    ))
                                }
                            })
                        }
                        _ => None,
                    };
                    // Parameters (images, colours, shrinkfactor...) only affect drawing.
                    let _ = params(&words.collect::<Vec<_>>(), n)?;
                    let class = class
                        .or_else(|| parent.map(|p| types[p].class))
                        .ok_or_else(|| {
                            InputError::at(n, format!("sprite `{name}` has no class"))
                        })?;
                    let id = match types.iter().position(|t| t.name == name) {
                        Some(0) if name == "wall" => {
                            types[0].class = class;
                            0
                        }
                        Some(_) => {
                            return Err(InputError::at(n, format!("sprite `{name}` defined twice")))
                        }
                        None => {
                            types.push(SpriteType {
                                name,
                                class,
                                parent,
                            });
                            types.len() - 1
                        }
                    };
                    stack.push((indent, id));
                }
                "mapping" => {
                    let mut chars = lhs.chars();
                    let (Some(c), None) = (chars.next(), chars.next()) else {
                        return Err(InputError::at(
                            n,
                            format!("`{lhs}` is not a single level character"),
                        ));
                    };
                    let names: Vec<&str> = rhs.split_whitespace().collect();
                    if names.len() != 1 {
                        return Err(InputError::at(
                            n,
                            "a level character must map to exactly one sprite type",
                        ));
                    }
                    let t = types
                        .iter()
                        .position(|t| t.name == names[0])
                        .ok_or_else(|| {
                            InputError::at(n, format!("unknown sprite `{}`", names[0]))
                        })?;
                    mapping.insert(c, t);
                }
                "interactions" => {
                    let names: Vec<String> = lhs.split_whitespace().map(String::from).collect();
                    if names.len() < 2 {
                        return Err(InputError::at(
                            n,
                            "an interaction needs at least two sprite types",
                        ));
                    }
                    let mut words = rhs.split_whitespace();
                    let effect = words
                        .next()
                        .ok_or_else(|| InputError::at(n, "missing effect"))?
                        .to_string();
                    let p = params(&words.collect::<Vec<_>>(), n)?;
                    raw_interactions.push((n, names, effect, p));
                }
                "terminations" => {
                    let mut words = content.split_whitespace();
                    let kind = words.next().unwrap_or("");
                    if kind != "SpriteCounter" {
                        return Err(InputError::at(
                            n,
                            format!("termination `{kind}` is not supported"),
                        ));
                    }
                    raw_terms.push((n, params(&words.collect::<Vec<_>>(), n)?));
                }
                _ => {
                    return Err(InputError::at(
                        n,
                        format!("`{content}` is outside any section"),
                    ))
                }
            }
        }
        if !saw_header {
            return Err(InputError::at(1, "empty game description"));
        }
        let find = |name: &str, n: usize| -> Result<usize, InputError> {
            types
                .iter()
                .position(|t| t.name == name)
                .ok_or_else(|| InputError::at(n, format!("unknown sprite `{name}`")))
        };
        // BasicGame defaults: `w` wall and `A` avatar (the parent type, as the engine does).
        mapping.entry('w').or_insert(0);
        if let Some(a) = types.iter().position(|t| t.name == "avatar") {
            mapping.entry('A').or_insert(a);
        }
        let mut interactions: Vec<Interaction> = Vec::new();
        let mut pair_order: Vec<(usize, usize)> = Vec::new();
        let mut by_pair: HashMap<(usize, usize), Vec<Interaction>> = HashMap::new();
        for (n, names, effect, p) in raw_interactions {
            let first = find(&names[0], n)?;
            let score = match p.get("scoreChange") {
                Some(s) => s.parse().map_err(|_| {
                    InputError::at(n, format!("scoreChange `{s}` is not an integer"))
                })?,
                None => 0,
            };
            let effect = match effect.as_str() {
                "stepBack" => Effect::StepBack,
                "killSprite" => Effect::KillSprite,
                "killBoth" => Effect::KillBoth,
                "bounceForward" => Effect::BounceForward,
                "undoAll" => Effect::UndoAll,
                "transformTo" => {
                    let s = p
                        .get("stype")
                        .ok_or_else(|| InputError::at(n, "transformTo needs stype="))?;
                    Effect::TransformTo(find(s, n)?)
                }
                other => {
                    return Err(InputError::at(
                        n,
                        format!("effect `{other}` is not supported"),
                    ))
                }
            };
            for second in &names[1..] {
                let second = find(second, n)?;
                let key = (first, second);
                if !by_pair.contains_key(&key) {
                    pair_order.push(key);
                }
                by_pair.entry(key).or_default().push(Interaction {
                    first,
                    second,
                    effect,
                    score,
                });
            }
        }
        for key in pair_order {
            interactions.extend(by_pair.remove(&key).unwrap_or_default());
        }
        let mut terminations = Vec::new();
        for (n, p) in raw_terms {
            let stype = find(
                p.get("stype")
                    .ok_or_else(|| InputError::at(n, "SpriteCounter needs stype="))?,
                n,
            )?;
            let limit = p.get("limit").map_or(Ok(0), |l| {
                l.parse()
                    .map_err(|_| InputError::at(n, format!("limit `{l}` is not a number")))
            })?;
            let win = match p.get("win").map(|s| s.as_str()) {
                Some("True") | Some("true") => true,
                Some("False") | Some("false") | None => false,
                Some(other) => {
                    return Err(InputError::at(
                        n,
                        format!("win=`{other}` is not True or False"),
                    ))
                }
            };
            terminations.push(Termination { stype, limit, win });
        }
        // What every game needs, whatever its level: blamed on the description, not the level.
        if !types.iter().any(|t| t.class == Class::MovingAvatar) {
            return Err(InputError::at(
                0,
                "the SpriteSet defines no avatar (a `MovingAvatar` sprite)",
            ));
        }
        if !terminations.iter().any(|t| t.win) {
            return Err(InputError::at(
                0,
                "no termination wins the game (a `TerminationSet` with `win=True`): the \
                 description is incomplete",
            ));
        }
        let mut game = Game {
            types,
            mapping,
            interactions,
            terminations,
            matches: Vec::new(),
        };
        let n = game.types.len();
        // Type sets: self, ancestors and descendants.
        game.matches = (0..n)
            .map(|s| (0..n).map(|r| game.is_a(s, r) || game.is_a(r, s)).collect())
            .collect();
        Ok(game)
    }
}
