//! What each client (one address) holds at once, counted against a limit and given back when
//! the hold is dropped: the server's connections per address ([`crate::connections`]) and the
//! engine pool's searches per client ([`crate::api::Engines`]).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// The counts, by address.
#[derive(Clone, Default)]
pub struct PerClient(Arc<Mutex<HashMap<IpAddr, usize>>>);

/// One of a client's holds, given back when dropped.
pub struct Hold {
    counts: PerClient,
    ip: IpAddr,
}

impl PerClient {
    /// A hold for `ip` when it holds fewer than `limit`; otherwise how many it holds.
    ///
    /// ```
    /// use playground::per_client::PerClient;
    /// let counts = PerClient::default();
    /// let ip = std::net::IpAddr::from([10, 0, 0, 7]);
    /// let first = counts.take(ip, 2).unwrap();
    /// let _second = counts.take(ip, 2).unwrap();
    /// assert_eq!(counts.take(ip, 2).err(), Some(2));
    /// drop(first);
    /// assert!(counts.take(ip, 2).is_ok());
    /// ```
    pub fn take(&self, ip: IpAddr, limit: usize) -> Result<Hold, usize> {
        let mut counts = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let n = counts.entry(ip).or_default();
        if *n >= limit {
            return Err(*n);
        }
        *n += 1;
        Ok(Hold {
            counts: self.clone(),
            ip,
        })
    }
}

impl Drop for Hold {
    fn drop(&mut self) {
        let mut counts = self.counts.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = counts.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                counts.remove(&self.ip);
            }
        }
    }
}
