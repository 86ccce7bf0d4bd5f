//! Open connections per peer, shared by every worker: past the cap a new connection is closed at once, so one
//! client cannot hold every socket. A peer is an IPv4 address or an IPv6 /64 (`client_addr::limit_net`: a host
//! rotating addresses inside its /64 is one peer). Trusted proxies (many clients behind one address) are exempt.

use crate::core::client_addr::TrustedProxies;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// Open connections by peer address.
type OpenCounts = Arc<Mutex<HashMap<IpAddr, usize>>>;

pub struct PeerCounter {
    open: OpenCounts,
    max: usize,
    proxies: TrustedProxies,
}

/// One admitted connection; the count goes down when it is dropped.
pub struct Slot {
    open: Option<(OpenCounts, IpAddr)>,
}

impl PeerCounter {
    /// `max` connections per peer (0: no cap).
    pub fn new(max: usize, proxies: TrustedProxies) -> Self {
        PeerCounter { open: Arc::default(), max, proxies }
    }

    /// A slot for a connection from `ip`, or `None` when the peer already holds `max`.
    pub fn admit(&self, ip: IpAddr) -> Option<Slot> {
        if self.max == 0 || self.proxies.trusts(ip) {
            return Some(Slot { open: None });
        }
        let ip = crate::core::client_addr::limit_net(ip);
        let mut open = self.open.lock().ok()?;
        let count = open.entry(ip).or_insert(0);
        if *count >= self.max {
            return None;
        }
        *count += 1;
        Some(Slot { open: Some((self.open.clone(), ip)) })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let Some((open, ip)) = self.open.take() else { return };
        let Ok(mut counts) = open.lock() else { return };
        if let Some(count) = counts.get_mut(&ip) {
            *count -= 1;
            if *count == 0 {
                counts.remove(&ip);
            }
        }
        drop(counts);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_each_peer_and_frees_slots() {
        let counter = PeerCounter::new(2, TrustedProxies::none());
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        let first = counter.admit(a).unwrap();
        let _second = counter.admit(a).unwrap();
        assert!(counter.admit(a).is_none());
        assert!(counter.admit(b).is_some(), "another peer is not affected");
        drop(first);
        assert!(counter.admit(a).is_some(), "a closed connection frees its slot");
        assert!(PeerCounter::new(0, TrustedProxies::none()).admit(a).is_some(), "0 means no cap");
        let v6 = |s: &str| s.parse::<IpAddr>().unwrap();
        let _one = counter.admit(v6("2001:db8:1:2::1")).unwrap();
        let _two = counter.admit(v6("2001:db8:1:2::2")).unwrap();
        assert!(counter.admit(v6("2001:db8:1:2::ffff")).is_none(), "one /64 is one peer");
        assert!(counter.admit(v6("2001:db8:1:3::1")).is_some(), "another /64 is another peer");
    }
}
