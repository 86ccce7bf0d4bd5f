//! The client's address, decided once per request: the socket peer, unless the peer is a configured trusted proxy
//! (`GATEWAY_TRUSTED_PROXIES`), in which case the header that proxy sets (`GATEWAY_TRUSTED_IP_HEADER` or GoTrue's
//! `GOTRUE_RATE_LIMIT_HEADER`, default `X-Forwarded-For`). A layer over the whole router rewrites
//! `X-Forwarded-For` to that one address (what a client sent itself is dropped), so SQL (`request.headers`, read by
//! `private.client_ip()`) and every rate limit see a value the gateway vouches for.

use axum::extract::{ConnectInfo, Request};
use axum::http::{HeaderName, HeaderValue};
use ipnet::IpNet;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::task::{Context, Poll};
use tower::{Layer, Service};

/// The resolved address, as a request extension (`None` when the server has no socket peer, e.g. in-process
/// tests; limits then share one bucket).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientAddr(pub Option<IpAddr>);

/// Which peers may name the client, and in which header.
#[derive(Debug, Clone)]
pub struct TrustedProxies {
    nets: Vec<IpNet>,
    header: HeaderName,
}

const FORWARDED_FOR: HeaderName = HeaderName::from_static("x-forwarded-for");
const REAL_IP: HeaderName = HeaderName::from_static("x-real-ip");

impl TrustedProxies {
    /// From `GATEWAY_TRUSTED_PROXIES` (comma-separated CIDRs or addresses) and the header name. A malformed entry is
    /// an error: a typo must not silently trust nobody (or everybody).
    pub fn from_vars(vars: &crate::core::config::Vars) -> anyhow::Result<Self> {
        let nets = vars
            .list(&["GATEWAY_TRUSTED_PROXIES"], &[])
            .iter()
            .map(|s| parse_net(s).ok_or_else(|| anyhow::anyhow!("GATEWAY_TRUSTED_PROXIES: {s:?} is not a CIDR")))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let name = vars
            .first(&["GATEWAY_TRUSTED_IP_HEADER", "GOTRUE_RATE_LIMIT_HEADER"])
            .unwrap_or_else(|| FORWARDED_FOR.as_str().into());
        let header = HeaderName::from_bytes(name.trim().to_ascii_lowercase().as_bytes())
            .map_err(|_| anyhow::anyhow!("GATEWAY_TRUSTED_IP_HEADER: {name:?} is not a header name"))?;
        Ok(TrustedProxies { nets, header })
    }

    /// No trusted proxy: the socket peer is always the client.
    pub fn none() -> Self {
        TrustedProxies { nets: vec![], header: FORWARDED_FOR }
    }

    /// Whether `ip` is a trusted proxy.
    pub fn trusts(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        self.nets.iter().any(|n| n.contains(&ip))
    }

    /// The client behind `peer`: the peer itself, or — when the peer is trusted — the address its header names
    /// (for a list, the right-most entry that is not itself a trusted proxy).
    pub fn resolve(&self, peer: Option<IpAddr>, headers: &http::HeaderMap) -> Option<IpAddr> {
        let peer = canonical(peer?);
        if !self.trusts(peer) {
            return Some(peer);
        }
        let named: Vec<IpAddr> = headers
            .get_all(&self.header)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .filter_map(parse_ip)
            .collect();
        let client = named.iter().rev().find(|ip| !self.trusts(**ip)).or(named.first());
        Some(client.copied().unwrap_or(peer))
    }
}

fn parse_net(text: &str) -> Option<IpNet> {
    let t = text.trim();
    t.parse::<IpNet>().ok().or_else(|| t.parse::<IpAddr>().ok().map(IpNet::from))
}

/// An address as a proxy writes it: `1.2.3.4`, `1.2.3.4:5678`, `[::1]:80`, `::1`.
fn parse_ip(text: &str) -> Option<IpAddr> {
    let t = text.trim().trim_matches('"');
    let ip = t.parse::<IpAddr>().ok().or_else(|| t.parse::<SocketAddr>().ok().map(|s| s.ip()))?;
    Some(canonical(ip))
}

/// How many leading bits of an IPv6 address name one client: a /64 is what one subscriber, host or site is given
/// (RFC 6177, and SLAAC needs one per link), so an address rotated inside it is the same client.
pub const IPV6_CLIENT_PREFIX: u8 = 64;

/// The network a limit counts `ip` under: an IPv4 address itself, an IPv6 address's /64.
pub fn limit_net(ip: IpAddr) -> IpAddr {
    match canonical(ip) {
        IpAddr::V6(v6) => {
            let bits = u128::from(v6) & (u128::MAX << (128 - u32::from(IPV6_CLIENT_PREFIX)));
            IpAddr::V6(bits.into())
        }
        v4 => v4,
    }
}

/// The text a limit keys `ip` by: `203.0.113.7`, or `2001:db8:1:2::/64` for any address of that /64.
pub fn limit_key(ip: IpAddr) -> String {
    match limit_net(ip) {
        IpAddr::V6(net) => format!("{net}/{IPV6_CLIENT_PREFIX}"),
        v4 => v4.to_string(),
    }
}

/// `::ffff:1.2.3.4` is `1.2.3.4`.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4).unwrap_or(ip),
        v4 => v4,
    }
}

/// The socket peer's address as header text, formatted once per connection (`core::conn` inserts it beside
/// `ConnectInfo`), so a request from a client that is its own peer does not format it again.
#[derive(Clone)]
pub struct PeerText {
    ip: IpAddr,
    text: HeaderValue,
}

impl PeerText {
    pub fn of(peer: IpAddr) -> Self {
        let ip = canonical(peer);
        PeerText { ip, text: header_text(ip) }
    }
}

fn header_text(ip: IpAddr) -> HeaderValue {
    // an address's text is always a valid header value
    HeaderValue::from_str(&ip.to_string()).unwrap_or(HeaderValue::from_static(""))
}

/// Resolves the client of `req`, records it as [`ClientAddr`], and makes `X-Forwarded-For` say exactly that
/// (removing `X-Real-IP` and the trusted header, which SQL must never read from a client).
pub fn stamp(proxies: &TrustedProxies, req: &mut Request) {
    let peer = req.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
    let client = proxies.resolve(peer, req.headers());
    let text = match (client, req.extensions().get::<PeerText>()) {
        (Some(ip), Some(peer)) if peer.ip == ip => Some(peer.text.clone()),
        (client, _) => client.map(header_text),
    };
    let headers = req.headers_mut();
    headers.remove(&FORWARDED_FOR);
    headers.remove(&REAL_IP);
    if proxies.header != FORWARDED_FOR {
        headers.remove(&proxies.header);
    }
    if let Some(value) = text {
        headers.insert(FORWARDED_FOR, value);
    }
    req.extensions_mut().insert(ClientAddr(client));
}

/// [`stamp`] on every request, as a plain tower layer (no per-request clone of the inner stack).
#[derive(Clone)]
pub struct StampLayer(pub Arc<TrustedProxies>);

impl<S> Layer<S> for StampLayer {
    type Service = Stamp<S>;

    fn layer(&self, inner: S) -> Self::Service {
        Stamp { inner, proxies: self.0.clone() }
    }
}

#[derive(Clone)]
pub struct Stamp<S> {
    inner: S,
    proxies: Arc<TrustedProxies>,
}

impl<S: Service<Request>> Service<Request> for Stamp<S> {
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut req: Request) -> Self::Future {
        stamp(&self.proxies, &mut req);
        self.inner.call(req)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::config::Vars;
    use std::collections::HashMap;

    fn proxies(list: &str, header: Option<&str>) -> TrustedProxies {
        let mut vars = HashMap::from([("GATEWAY_TRUSTED_PROXIES".to_string(), list.to_string())]);
        if let Some(h) = header {
            vars.insert("GOTRUE_RATE_LIMIT_HEADER".into(), h.into());
        }
        TrustedProxies::from_vars(&Vars(vars)).unwrap()
    }

    fn headers(pairs: &[(&str, &str)]) -> http::HeaderMap {
        let mut h = http::HeaderMap::new();
        for (k, v) in pairs {
            h.append(HeaderName::from_bytes(k.as_bytes()).unwrap(), HeaderValue::from_str(v).unwrap());
        }
        h
    }

    fn ip(s: &str) -> Option<IpAddr> {
        Some(s.parse().unwrap())
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_claims() {
        let p = proxies("", None);
        let h = headers(&[("x-forwarded-for", "203.0.113.9"), ("x-real-ip", "203.0.113.10")]);
        assert_eq!(p.resolve(ip("198.51.100.1"), &h), ip("198.51.100.1"));
        assert_eq!(p.resolve(ip("::ffff:198.51.100.1"), &h), ip("198.51.100.1"));
        assert_eq!(p.resolve(None, &h), None);
    }

    #[test]
    fn a_trusted_proxy_names_the_client_right_to_left() {
        let p = proxies("10.0.0.0/8, 127.0.0.1", None);
        let h = headers(&[("x-forwarded-for", "1.1.1.1, 203.0.113.9, 10.0.0.7")]);
        assert_eq!(p.resolve(ip("10.0.0.2"), &h), ip("203.0.113.9"), "the spoofable left part is ignored");
        assert_eq!(p.resolve(ip("127.0.0.1"), &headers(&[])), ip("127.0.0.1"), "no header: the proxy itself");
        assert_eq!(p.resolve(ip("10.0.0.2"), &headers(&[("x-forwarded-for", "garbage")])), ip("10.0.0.2"));
        assert_eq!(p.resolve(ip("10.0.0.2"), &headers(&[("x-forwarded-for", "10.0.0.9")])), ip("10.0.0.9"));
        assert_eq!(p.resolve(ip("10.0.0.2"), &headers(&[("x-forwarded-for", "[2001:db8::1]:443")])), ip("2001:db8::1"));
        assert_eq!(p.resolve(ip("192.0.2.1"), &h), ip("192.0.2.1"), "an untrusted peer is never a proxy");
    }

    #[test]
    fn the_header_a_proxy_sets_is_configurable() {
        let p = proxies("127.0.0.0/8", Some("CF-Connecting-IP"));
        let h = headers(&[("cf-connecting-ip", "203.0.113.5"), ("x-forwarded-for", "1.1.1.1")]);
        assert_eq!(p.resolve(ip("127.0.0.1"), &h), ip("203.0.113.5"));
    }

    #[test]
    fn stamping_replaces_what_the_client_sent() {
        let p = proxies("", None);
        let mut req = Request::new(axum::body::Body::empty());
        req.headers_mut().insert("x-forwarded-for", HeaderValue::from_static("1.1.1.1"));
        req.headers_mut().insert("x-real-ip", HeaderValue::from_static("2.2.2.2"));
        req.extensions_mut().insert(ConnectInfo(SocketAddr::from(([192, 0, 2, 7], 5000))));
        stamp(&p, &mut req);
        assert_eq!(req.headers()["x-forwarded-for"], "192.0.2.7");
        assert!(!req.headers().contains_key("x-real-ip"));
        assert_eq!(req.extensions().get::<ClientAddr>(), Some(&ClientAddr(ip("192.0.2.7"))));
        let mut bare = Request::new(axum::body::Body::empty());
        bare.headers_mut().insert("x-forwarded-for", HeaderValue::from_static("1.1.1.1"));
        stamp(&p, &mut bare);
        assert!(!bare.headers().contains_key("x-forwarded-for"), "no peer: nothing a client sent survives");
    }

    #[test]
    fn the_peers_text_is_reused_only_for_the_peer_itself() {
        let request = |forwarded: &str| {
            let mut req = Request::new(axum::body::Body::empty());
            req.headers_mut().insert("x-forwarded-for", HeaderValue::from_str(forwarded).unwrap());
            let peer = SocketAddr::from(([10, 0, 0, 2], 5000));
            req.extensions_mut().insert(ConnectInfo(peer));
            req.extensions_mut().insert(PeerText::of(peer.ip()));
            req
        };
        let mut direct = request("1.1.1.1");
        stamp(&proxies("", None), &mut direct);
        assert_eq!(direct.headers()["x-forwarded-for"], "10.0.0.2");
        let mut proxied = request("203.0.113.9");
        stamp(&proxies("10.0.0.0/8", None), &mut proxied);
        assert_eq!(proxied.headers()["x-forwarded-for"], "203.0.113.9", "the client a trusted proxy names");
        assert_eq!(proxied.extensions().get::<ClientAddr>(), Some(&ClientAddr(ip("203.0.113.9"))));
    }

    #[test]
    fn ipv6_clients_are_keyed_by_their_64() {
        let key = |s: &str| limit_key(s.parse().unwrap());
        assert_eq!(key("2001:db8:1:2::1"), "2001:db8:1:2::/64");
        assert_eq!(key("2001:db8:1:2::ffff"), key("2001:db8:1:2:abcd:ef01:2345:6789"));
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"), "another /64 is another client");
        assert_eq!(key("203.0.113.7"), "203.0.113.7");
        assert_eq!(key("::ffff:203.0.113.7"), "203.0.113.7", "a mapped IPv4 address is that address");
        assert_eq!(limit_net("2001:db8::1".parse().unwrap()), "2001:db8::".parse::<IpAddr>().unwrap());
    }

    #[test]
    fn a_malformed_proxy_list_is_refused() {
        let vars = Vars(HashMap::from([("GATEWAY_TRUSTED_PROXIES".to_string(), "10.0.0.0/33".to_string())]));
        assert!(TrustedProxies::from_vars(&vars).is_err());
    }
}
