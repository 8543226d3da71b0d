//! Units of work: a request's state change is applied in memory, written to the database in
//! one transaction, and acknowledged only once that transaction has committed. The maps of the
//! state are [`Tracked`]: while a unit runs they keep each entry's value from before its first
//! change, so that a failed write puts the state back exactly as it was. What a unit tells the
//! outside (stream lines, the in-process log) waits in its [`Outbox`] until the commit.

use std::{collections::HashMap, ops::Deref};

use tokio::sync::mpsc::UnboundedSender;

use crate::ArenaLog;

/// A map of the state whose changes a unit of work can undo. Reading goes through `Deref` to
/// the plain map; every change goes through the methods here, which keep the entry's earlier
/// value (the first time it changes in the unit).
pub(crate) struct Tracked<V> {
    map: HashMap<String, V>,
    /// The entries' values before the unit changed them (`None`: absent); `None` outside a
    /// unit (nothing to undo: no copies are kept).
    undo: Option<HashMap<String, Option<V>>>,
}

impl<V> Default for Tracked<V> {
    fn default() -> Tracked<V> {
        Tracked {
            map: HashMap::new(),
            undo: None,
        }
    }
}

impl<V> Deref for Tracked<V> {
    type Target = HashMap<String, V>;
    fn deref(&self) -> &HashMap<String, V> {
        &self.map
    }
}

/// What a unit of work does with each tracked map, whatever its values.
pub(crate) trait Journaled {
    /// A unit starts.
    fn begin(&mut self);
    /// The unit's changes stay.
    fn commit(&mut self);
    /// The unit's changes are undone.
    fn rollback(&mut self);
}

impl<V: Clone> Journaled for Tracked<V> {
    fn begin(&mut self) {
        Tracked::begin(self);
    }
    fn commit(&mut self) {
        Tracked::commit(self);
    }
    fn rollback(&mut self) {
        Tracked::rollback(self);
    }
}

impl<V: Clone> Tracked<V> {
    fn save(&mut self, key: &str) {
        if let Some(undo) = &mut self.undo {
            if !undo.contains_key(key) {
                undo.insert(key.to_string(), self.map.get(key).cloned());
            }
        }
    }

    /// The entry, to change.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut V> {
        if self.map.contains_key(key) {
            self.save(key);
        }
        self.map.get_mut(key)
    }

    /// Sets an entry; the earlier value, if any.
    pub fn insert(&mut self, key: String, value: V) -> Option<V> {
        self.save(&key);
        self.map.insert(key, value)
    }

    /// Removes an entry.
    pub fn remove(&mut self, key: &str) -> Option<V> {
        if self.map.contains_key(key) {
            self.save(key);
        }
        self.map.remove(key)
    }

    /// Keeps the entries `keep` says yes to.
    pub fn retain(&mut self, mut keep: impl FnMut(&String, &V) -> bool) {
        let gone: Vec<String> = self
            .map
            .iter()
            .filter(|(k, v)| !keep(k, v))
            .map(|(k, _)| k.clone())
            .collect();
        for k in gone {
            self.remove(&k);
        }
    }

    /// A unit starts: changes from now on can be undone.
    pub fn begin(&mut self) {
        self.undo = Some(HashMap::new());
    }

    /// The unit's changes stay.
    pub fn commit(&mut self) {
        self.undo = None;
    }

    /// The unit's changes are undone.
    pub fn rollback(&mut self) {
        for (key, before) in self.undo.take().unwrap_or_default() {
            match before {
                Some(v) => {
                    self.map.insert(key, v);
                }
                None => {
                    self.map.remove(&key);
                }
            }
        }
    }
}

/// What a unit tells the outside once it has committed.
pub(crate) enum Outgoing {
    /// A line for a stream.
    Line(UnboundedSender<String>, String),
    /// An entry of the in-process log.
    Log(ArenaLog),
    /// The game streams of a finished game close.
    CloseGameStreams(String),
}

/// The messages of a unit, in order.
pub(crate) type Outbox = Vec<Outgoing>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rollback_restores_changed_added_and_removed_entries() {
        let mut t: Tracked<u32> = Tracked::default();
        t.insert("a".into(), 1);
        t.insert("b".into(), 2);
        t.begin();
        *t.get_mut("a").expect("a") = 10;
        *t.get_mut("a").expect("a") = 11;
        t.remove("b");
        t.insert("c".into(), 3);
        t.retain(|k, _| k != "c");
        t.insert("d".into(), 4);
        assert_eq!(t.get("a"), Some(&11));
        t.rollback();
        let mut now: Vec<_> = t.iter().map(|(k, v)| (k.clone(), *v)).collect();
        now.sort();
        assert_eq!(now, vec![("a".to_string(), 1), ("b".to_string(), 2)]);
        // Outside a unit nothing is kept, and a commit keeps the changes.
        t.begin();
        t.insert("e".into(), 5);
        t.commit();
        t.rollback();
        assert_eq!(t.get("e"), Some(&5));
    }
}
