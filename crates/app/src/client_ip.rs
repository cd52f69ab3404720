//! The client's address, for every per-IP limit.
//!
//! The TCP peer is the client unless it is one of `server.trusted_proxies` (CIDR blocks, e.g. the
//! load balancer). Then `X-Forwarded-For` is read from the right: each trusted hop is skipped and
//! the first address no trusted proxy stands for is the client's. Entries left of it were written
//! by the client and are never read, so a client cannot pick its own address.

use std::future::{ready, Ready};
use std::net::IpAddr;

use actix_web::{dev::Payload, web, FromRequest, HttpRequest};
use ipnet::IpNet;

/// The proxies whose `X-Forwarded-For` is believed.
#[derive(Debug, Clone, Default)]
pub struct TrustedProxies(Vec<IpNet>);

impl TrustedProxies {
    /// Parses `server.trusted_proxies`: CIDR blocks or single addresses.
    pub fn parse(entries: &[String]) -> anyhow::Result<Self> {
        entries
            .iter()
            .map(|entry| {
                let entry = entry.trim();
                entry
                    .parse::<IpNet>()
                    .or_else(|_| entry.parse::<IpAddr>().map(IpNet::from))
                    .map_err(|_| {
                        anyhow::anyhow!(
                            "server.trusted_proxies: {entry:?} is not an address or CIDR block"
                        )
                    })
            })
            .collect::<anyhow::Result<Vec<_>>>()
            .map(TrustedProxies)
    }

    /// Whether `ip` is one of the trusted proxies, whose forwarding headers are believed.
    pub fn trusts(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        self.0.iter().any(|net| net.contains(&ip))
    }

    /// The client's address for a request from `peer` carrying these `X-Forwarded-For` values.
    pub fn client(&self, peer: IpAddr, forwarded_for: &[&str]) -> IpAddr {
        let peer = canonical(peer);
        if !self.trusts(peer) {
            return peer;
        }
        let hops: Vec<&str> = forwarded_for
            .iter()
            .flat_map(|value| value.split(','))
            .map(str::trim)
            .collect();
        let mut client = peer;
        for hop in hops.iter().rev() {
            let Some(ip) = parse_hop(hop) else {
                // A hop we cannot read: stop at the last address we could vouch for.
                return client;
            };
            client = ip;
            if !self.trusts(ip) {
                return ip;
            }
        }
        client
    }
}

/// An `X-Forwarded-For` entry: an address, possibly with a port (`1.2.3.4:5678`, `[::1]:80`).
fn parse_hop(hop: &str) -> Option<IpAddr> {
    if let Ok(ip) = hop.parse::<IpAddr>() {
        return Some(canonical(ip));
    }
    hop.parse::<std::net::SocketAddr>()
        .ok()
        .map(|addr| canonical(addr.ip()))
}

/// IPv4-mapped IPv6 addresses count as the IPv4 address they carry.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        IpAddr::V4(_) => ip,
    }
}

/// The requesting client's address (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientIp(pub IpAddr);

impl ClientIp {
    pub fn of(request: &HttpRequest) -> ClientIp {
        let peer = request
            .peer_addr()
            .map_or(IpAddr::from([0, 0, 0, 0]), |addr| addr.ip());
        let Some(proxies) = request.app_data::<web::Data<TrustedProxies>>() else {
            return ClientIp(canonical(peer));
        };
        let forwarded: Vec<&str> = request
            .headers()
            .get_all("x-forwarded-for")
            .filter_map(|value| value.to_str().ok())
            .collect();
        ClientIp(proxies.client(peer, &forwarded))
    }
}

impl ClientIp {
    /// The key of this address for every per-address limit (login, sign-up and reset codes,
    /// password resets, promo checks, Roblox lookups, unpaid orders, event streams, live chats):
    /// an IPv6 client counts as its /64 (one subscriber's network, whose addresses it may rotate
    /// through at will), an IPv4 client as its address ([`shared::network_key`], which the
    /// blocklist compares by too). The address itself stays what the shop records as evidence.
    pub fn network_key(&self) -> String {
        shared::network_key(self.0)
    }
}

impl std::fmt::Display for ClientIp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl FromRequest for ClientIp {
    type Error = actix_web::Error;
    type Future = Ready<Result<Self, Self::Error>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(Ok(ClientIp::of(request)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap_or(IpAddr::from([0, 0, 0, 0]))
    }

    fn proxies(entries: &[&str]) -> TrustedProxies {
        let entries: Vec<String> = entries.iter().map(|e| (*e).to_owned()).collect();
        TrustedProxies::parse(&entries).unwrap_or_default()
    }

    #[test]
    fn without_trusted_proxies_the_peer_is_the_client_whatever_the_header_says() {
        let none = proxies(&[]);
        assert_eq!(none.client(ip("10.0.0.5"), &["1.2.3.4"]), ip("10.0.0.5"));
    }

    #[test]
    fn behind_a_trusted_proxy_the_rightmost_untrusted_hop_is_the_client() {
        let lb = proxies(&["10.0.0.0/8", "127.0.0.1"]);
        // the client forged "6.6.6.6"; the balancer appended the real peer
        assert_eq!(
            lb.client(ip("10.0.0.5"), &["6.6.6.6, 203.0.113.7"]),
            ip("203.0.113.7")
        );
        // two trusted hops, header split over two lines
        assert_eq!(
            lb.client(ip("127.0.0.1"), &["6.6.6.6, 203.0.113.7", "10.1.1.1"]),
            ip("203.0.113.7")
        );
        // no header: the proxy itself
        assert_eq!(lb.client(ip("10.0.0.5"), &[]), ip("10.0.0.5"));
        // an unreadable hop stops the walk at the last trusted one
        assert_eq!(
            lb.client(ip("10.0.0.5"), &["203.0.113.7, garbage"]),
            ip("10.0.0.5")
        );
        // ports and IPv4-mapped peers
        assert_eq!(
            lb.client(ip("::ffff:10.0.0.5"), &["203.0.113.7:4711"]),
            ip("203.0.113.7")
        );
    }

    #[test]
    fn an_ipv6_client_is_keyed_by_its_64_an_ipv4_client_by_its_address() {
        assert_eq!(ClientIp(ip("203.0.113.7")).network_key(), "203.0.113.7");
        assert_eq!(
            ClientIp(ip("2001:db8:1:2:aaaa::1")).network_key(),
            ClientIp(ip("2001:db8:1:2:bbbb::9")).network_key()
        );
        assert_eq!(
            ClientIp(ip("2001:db8:1:2::1")).network_key(),
            "2001:db8:1:2::/64"
        );
    }

    #[test]
    fn a_bad_entry_is_a_configuration_error() {
        assert!(TrustedProxies::parse(&["10.0.0.0/33".to_owned()]).is_err());
        assert!(TrustedProxies::parse(&["nonsense".to_owned()]).is_err());
        assert!(TrustedProxies::parse(&["::1".to_owned(), "192.168.0.0/16".to_owned()]).is_ok());
    }
}
