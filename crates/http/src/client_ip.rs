//! The client's address for the per-address budget of failed authentications (D8, T88, T98).
//! It is the TCP peer, unless the peer is a trusted reverse proxy (`TALENT_TRUSTED_PROXIES`):
//! then it is the rightmost address of `X-Forwarded-For` that is not itself a trusted proxy. A
//! client cannot choose its address by sending the header: from an untrusted peer it is ignored.

use actix_web::http::header::HeaderMap;
use ipnet::IpNet;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// The networks whose connections are reverse proxies (T98).
#[derive(Clone, Debug, Default)]
pub struct TrustedProxies(pub Vec<IpNet>);

impl TrustedProxies {
    /// Parses a comma-separated list of addresses and networks (`10.0.0.0/8, 127.0.0.1, ::1`).
    /// Errors: the first entry that is neither, named.
    pub fn parse(list: &str) -> Result<TrustedProxies, String> {
        let mut nets = Vec::new();
        for raw in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let net = raw
                .parse::<IpNet>()
                .or_else(|_| raw.parse::<IpAddr>().map(IpNet::from))
                .map_err(|_| format!("TALENT_TRUSTED_PROXIES: '{raw}' is not an IP address or network"))?;
            nets.push(net);
        }
        Ok(TrustedProxies(nets))
    }

    fn trusts(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|n| n.contains(&ip))
    }

    /// The client address of a request from `peer` with `headers` (see the module doc).
    pub fn client_ip(&self, peer: Option<SocketAddr>, headers: &HeaderMap) -> IpAddr {
        let peer = peer.map(|a| a.ip()).unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
        if self.0.is_empty() || !self.trusts(peer) {
            return peer;
        }
        // Every X-Forwarded-For line, in order, as one list; read from the right (the nearest hop).
        let hops: Vec<&str> = headers
            .get_all("x-forwarded-for")
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .collect();
        for hop in hops.iter().rev() {
            let Some(ip) = hop.parse::<IpAddr>().ok().or_else(|| hop.parse::<SocketAddr>().ok().map(|s| s.ip())) else {
                // A hop we cannot read: the last proxy that added a readable one is the client.
                return peer;
            };
            if !self.trusts(ip) {
                return ip;
            }
        }
        peer
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use actix_web::http::header::{HeaderName, HeaderValue};

    fn headers(xff: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in xff {
            h.append(HeaderName::from_static("x-forwarded-for"), HeaderValue::from_str(v).unwrap());
        }
        h
    }

    /// T98: the header counts only from a trusted proxy, and only its untrusted rightmost hop.
    #[test]
    fn the_client_is_the_rightmost_untrusted_hop_behind_a_trusted_proxy_t98() {
        let peer = |s: &str| Some(SocketAddr::new(s.parse().unwrap(), 5000));
        let t = TrustedProxies::parse("10.0.0.0/8, 127.0.0.1").unwrap();
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        assert_eq!(t.client_ip(peer("127.0.0.1"), &headers(&["203.0.113.7"])), ip("203.0.113.7"));
        assert_eq!(t.client_ip(peer("10.1.2.3"), &headers(&["1.1.1.1, 203.0.113.7, 10.0.0.9"])), ip("203.0.113.7"));
        assert_eq!(t.client_ip(peer("10.1.2.3"), &headers(&["1.1.1.1", "203.0.113.8"])), ip("203.0.113.8"));
        assert_eq!(t.client_ip(peer("198.51.100.1"), &headers(&["203.0.113.7"])), ip("198.51.100.1"), "untrusted peer");
        assert_eq!(t.client_ip(peer("127.0.0.1"), &headers(&[])), ip("127.0.0.1"), "no header");
        assert_eq!(t.client_ip(peer("127.0.0.1"), &headers(&["garbage"])), ip("127.0.0.1"));
        assert_eq!(t.client_ip(peer("127.0.0.1"), &headers(&["10.0.0.1, 127.0.0.1"])), ip("127.0.0.1"), "all trusted");
        assert_eq!(t.client_ip(peer("127.0.0.1"), &headers(&["[2001:db8::1]:443"])), ip("2001:db8::1"));
        let none = TrustedProxies::default();
        assert_eq!(none.client_ip(peer("127.0.0.1"), &headers(&["203.0.113.7"])), ip("127.0.0.1"), "off by default");
        assert!(TrustedProxies::parse("10.0.0.0/8,nonsense").unwrap_err().contains("'nonsense'"));
        assert!(TrustedProxies::parse(" ").unwrap().0.is_empty());
        assert_eq!(TrustedProxies::parse("::1, fd00::/8").unwrap().0.len(), 2);
    }
}
