//! Which IP addresses an outbound call may reach: the SSRF filter's table (D54, D35; T140-T142).
//!
//! One table, [`TABLE`], transcribes every entry of the IANA IPv4 Special-Purpose Address Registry
//! and of the IANA IPv6 Special-Purpose Address Registry (RFC 6890 and the RFCs each entry cites),
//! with its "Globally Reachable" column, plus the multicast blocks and two deprecated IPv6 forms
//! (D35). Every adapter that calls out (the webhook sender; ATS connectors) asks [`refusal`] about
//! each address it is about to connect to, so the rule lives here once, in `std::net` terms only.
//!
//! The rule, for an address (T140):
//! 1. Find the most specific entry that contains it (a sub-entry wins over its block:
//!    `192.0.0.9/32` is globally reachable inside the non-reachable `192.0.0.0/24`). No entry: an
//!    ordinary address, allowed.
//! 2. An entry whose addresses carry an IPv4 address ([`Embedding`]: IPv4-mapped, IPv4-compatible,
//!    NAT64 `64:ff9b::/96`, 6to4 `2002::/16`, Teredo `2001::/32`) is decided by that IPv4 address
//!    (both of Teredo's): refused when it is refused, whatever the entry's own column says (T141).
//! 3. Otherwise "Globally Reachable" True allows; False and N/A refuse.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Where an entry of [`TABLE`] is transcribed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Registry {
    /// The IANA IPv4 Special-Purpose Address Registry.
    Ipv4SpecialPurpose,
    /// The IANA IPv6 Special-Purpose Address Registry.
    Ipv6SpecialPurpose,
    /// The IANA IPv4 and IPv6 Multicast Address Space registries (RFC 5771, RFC 4291 §2.7): a
    /// webhook is one TCP connection to one host, so multicast is refused (D35).
    Multicast,
    /// A deprecated form that no special-purpose registry lists: IPv4-compatible addresses
    /// (RFC 4291 §2.5.5.1) and site-local addresses (RFC 3879), refused as D35's "private" (T142).
    Deprecated,
}

/// An entry's "Globally Reachable" column, as the registry gives it (T140).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reachable {
    /// True: allowed (unless the entry embeds an IPv4 address, see [`Embedding`]).
    Yes,
    /// False: refused. Also the value of the entries that are not from a special-purpose
    /// registry ([`Registry::Multicast`], [`Registry::Deprecated`]).
    No,
    /// N/A (6to4, Teredo, and entries whose allocation ended): refused, unless the entry embeds
    /// an IPv4 address.
    NotApplicable,
}

/// How an IPv6 address carries an IPv4 address, which is then the address checked (D54, T141).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Embedding {
    /// `::ffff:a.b.c.d` (RFC 4291 §2.5.5.2): the last 32 bits. A socket connecting to it sends
    /// IPv4 to `a.b.c.d`.
    Mapped,
    /// `::a.b.c.d` (RFC 4291 §2.5.5.1, deprecated): the last 32 bits.
    Compatible,
    /// `64:ff9b::a.b.c.d` (RFC 6052 well-known prefix): the last 32 bits, where the translator
    /// forwards to.
    Nat64,
    /// `2002:AABB:CCDD::/48` (RFC 3056): bits 16..48, the 6to4 site's IPv4 address.
    SixToFour,
    /// `2001:0:SSSS:SSSS:flags:port:CCCC:CCCC` (RFC 4380 §4): the server's IPv4 address in bits
    /// 32..64 and the client's in the last 32 bits, inverted. Both are checked.
    Teredo,
}

impl Embedding {
    /// The IPv4 addresses `ip` carries in this form: one, or for Teredo the server's and the
    /// client's.
    pub fn decode(self, ip: Ipv6Addr) -> (Ipv4Addr, Option<Ipv4Addr>) {
        let bits = u128::from(ip);
        let last = Ipv4Addr::from(bits as u32);
        match self {
            Embedding::Mapped | Embedding::Compatible | Embedding::Nat64 => (last, None),
            Embedding::SixToFour => (Ipv4Addr::from((bits >> 80) as u32), None),
            Embedding::Teredo => (Ipv4Addr::from((bits >> 64) as u32), Some(Ipv4Addr::from(!(bits as u32)))),
        }
    }
}

/// One entry of [`TABLE`]: a prefix, its name as the registry writes it (prefixed by the prefix
/// itself, e.g. `"198.18.0.0/15 Benchmarking"`), where it comes from and how it is decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The prefix's first address (no bits set past `len`).
    pub network: IpAddr,
    /// The prefix length in bits (0..=32 or 0..=128).
    pub len: u8,
    /// `"<prefix>/<len> <registry name>"`: how refusals name the entry.
    pub name: &'static str,
    /// The registry the entry is transcribed from.
    pub registry: Registry,
    /// Its "Globally Reachable" column.
    pub reachable: Reachable,
    /// The IPv4 address its addresses carry, when they do: then that address decides.
    pub embeds: Option<Embedding>,
}

impl Entry {
    /// True when `ip` is in this prefix (same family only: an IPv4-mapped address is not in an
    /// IPv4 prefix; it is decoded through its own entry).
    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.network, ip) {
            (IpAddr::V4(n), IpAddr::V4(a)) => {
                let mask = u32::MAX.checked_shl(32 - u32::from(self.len)).unwrap_or(0);
                (u32::from(a) & mask) == u32::from(n)
            }
            (IpAddr::V6(n), IpAddr::V6(a)) => {
                let mask = u128::MAX.checked_shl(128 - u32::from(self.len)).unwrap_or(0);
                (u128::from(a) & mask) == u128::from(n)
            }
            _ => false,
        }
    }
}

const fn v4(o: [u8; 4], len: u8, name: &'static str, reachable: Reachable) -> Entry {
    Entry {
        network: IpAddr::V4(Ipv4Addr::new(o[0], o[1], o[2], o[3])),
        len,
        name,
        registry: Registry::Ipv4SpecialPurpose,
        reachable,
        embeds: None,
    }
}

const fn v6(s: [u16; 8], len: u8, name: &'static str, reachable: Reachable, embeds: Option<Embedding>) -> Entry {
    Entry {
        network: IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7])),
        len,
        name,
        registry: Registry::Ipv6SpecialPurpose,
        reachable,
        embeds,
    }
}

const fn other(mut e: Entry, registry: Registry) -> Entry {
    e.registry = registry;
    e
}

use Reachable::{No, NotApplicable as NA, Yes};

/// Every address an outbound call must think about (D54, D35): the IANA IPv4 and IPv6
/// Special-Purpose Address Registries entry by entry (as updated to 2025: `100:0:0:1::/64`
/// RFC 9780, `2001:1::3/128` RFC 9665, `3fff::/20` RFC 9637, `5f00::/16` RFC 9602), then
/// multicast and the deprecated IPv6 forms. Decided by [`refusal`].
pub const TABLE: &[Entry] = &[
    // IANA IPv4 Special-Purpose Address Registry.
    v4([0, 0, 0, 0], 8, "0.0.0.0/8 \"This network\"", No),
    v4([0, 0, 0, 0], 32, "0.0.0.0/32 \"This host on this network\"", No),
    v4([10, 0, 0, 0], 8, "10.0.0.0/8 Private-Use", No),
    v4([100, 64, 0, 0], 10, "100.64.0.0/10 Shared Address Space", No),
    v4([127, 0, 0, 0], 8, "127.0.0.0/8 Loopback", No),
    v4([169, 254, 0, 0], 16, "169.254.0.0/16 Link Local", No),
    v4([172, 16, 0, 0], 12, "172.16.0.0/12 Private-Use", No),
    v4([192, 0, 0, 0], 24, "192.0.0.0/24 IETF Protocol Assignments", No),
    v4([192, 0, 0, 0], 29, "192.0.0.0/29 IPv4 Service Continuity Prefix", No),
    v4([192, 0, 0, 8], 32, "192.0.0.8/32 IPv4 dummy address", No),
    v4([192, 0, 0, 9], 32, "192.0.0.9/32 Port Control Protocol Anycast", Yes),
    v4([192, 0, 0, 10], 32, "192.0.0.10/32 Traversal Using Relays around NAT Anycast", Yes),
    v4([192, 0, 0, 170], 32, "192.0.0.170/32 NAT64/DNS64 Discovery", No),
    v4([192, 0, 0, 171], 32, "192.0.0.171/32 NAT64/DNS64 Discovery", No),
    v4([192, 0, 2, 0], 24, "192.0.2.0/24 Documentation (TEST-NET-1)", No),
    v4([192, 31, 196, 0], 24, "192.31.196.0/24 AS112-v4", Yes),
    v4([192, 52, 193, 0], 24, "192.52.193.0/24 AMT", Yes),
    // Allocation ended 2015-03 (RFC 7526): the columns are N/A.
    v4([192, 88, 99, 0], 24, "192.88.99.0/24 Deprecated (6to4 Relay Anycast)", NA),
    v4([192, 88, 99, 2], 32, "192.88.99.2/32 6a44-relay anycast address", No),
    v4([192, 168, 0, 0], 16, "192.168.0.0/16 Private-Use", No),
    v4([192, 175, 48, 0], 24, "192.175.48.0/24 Direct Delegation AS112 Service", Yes),
    v4([198, 18, 0, 0], 15, "198.18.0.0/15 Benchmarking", No),
    v4([198, 51, 100, 0], 24, "198.51.100.0/24 Documentation (TEST-NET-2)", No),
    v4([203, 0, 113, 0], 24, "203.0.113.0/24 Documentation (TEST-NET-3)", No),
    v4([240, 0, 0, 0], 4, "240.0.0.0/4 Reserved", No),
    v4([255, 255, 255, 255], 32, "255.255.255.255/32 Limited Broadcast", No),
    // IANA IPv6 Special-Purpose Address Registry.
    v6([0, 0, 0, 0, 0, 0, 0, 1], 128, "::1/128 Loopback Address", No, None),
    v6([0, 0, 0, 0, 0, 0, 0, 0], 128, "::/128 Unspecified Address", No, None),
    v6([0, 0, 0, 0, 0, 0xffff, 0, 0], 96, "::ffff:0:0/96 IPv4-mapped Address", No, Some(Embedding::Mapped)),
    v6([0x64, 0xff9b, 0, 0, 0, 0, 0, 0], 96, "64:ff9b::/96 IPv4-IPv6 Translat.", Yes, Some(Embedding::Nat64)),
    v6([0x64, 0xff9b, 1, 0, 0, 0, 0, 0], 48, "64:ff9b:1::/48 IPv4-IPv6 Translat.", No, None),
    v6([0x100, 0, 0, 0, 0, 0, 0, 0], 64, "100::/64 Discard-Only Address Block", No, None),
    v6([0x100, 0, 0, 1, 0, 0, 0, 0], 64, "100:0:0:1::/64 Dummy IPv6 Prefix", No, None),
    v6([0x2001, 0, 0, 0, 0, 0, 0, 0], 23, "2001::/23 IETF Protocol Assignments", No, None),
    v6([0x2001, 0, 0, 0, 0, 0, 0, 0], 32, "2001::/32 TEREDO", NA, Some(Embedding::Teredo)),
    v6([0x2001, 1, 0, 0, 0, 0, 0, 1], 128, "2001:1::1/128 Port Control Protocol Anycast", Yes, None),
    v6([0x2001, 1, 0, 0, 0, 0, 0, 2], 128, "2001:1::2/128 Traversal Using Relays around NAT Anycast", Yes, None),
    v6([0x2001, 1, 0, 0, 0, 0, 0, 3], 128, "2001:1::3/128 DNS-SD Service Registration Protocol Anycast", Yes, None),
    v6([0x2001, 2, 0, 0, 0, 0, 0, 0], 48, "2001:2::/48 Benchmarking", No, None),
    v6([0x2001, 3, 0, 0, 0, 0, 0, 0], 32, "2001:3::/32 AMT", Yes, None),
    v6([0x2001, 4, 0x112, 0, 0, 0, 0, 0], 48, "2001:4:112::/48 AS112-v6", Yes, None),
    // Allocation ended 2014-03: the columns are N/A.
    v6([0x2001, 0x10, 0, 0, 0, 0, 0, 0], 28, "2001:10::/28 Deprecated (previously ORCHID)", NA, None),
    v6([0x2001, 0x20, 0, 0, 0, 0, 0, 0], 28, "2001:20::/28 ORCHIDv2", Yes, None),
    v6(
        [0x2001, 0x30, 0, 0, 0, 0, 0, 0],
        28,
        "2001:30::/28 Drone Remote ID Protocol Entity Tags (DETs) Prefix",
        Yes,
        None,
    ),
    v6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0], 32, "2001:db8::/32 Documentation", No, None),
    v6([0x2002, 0, 0, 0, 0, 0, 0, 0], 16, "2002::/16 6to4", NA, Some(Embedding::SixToFour)),
    v6([0x2620, 0x4f, 0x8000, 0, 0, 0, 0, 0], 48, "2620:4f:8000::/48 Direct Delegation AS112 Service", Yes, None),
    v6([0x3fff, 0, 0, 0, 0, 0, 0, 0], 20, "3fff::/20 Documentation", No, None),
    v6([0x5f00, 0, 0, 0, 0, 0, 0, 0], 16, "5f00::/16 Segment Routing (SRv6) SIDs", No, None),
    v6([0xfc00, 0, 0, 0, 0, 0, 0, 0], 7, "fc00::/7 Unique-Local", No, None),
    v6([0xfe80, 0, 0, 0, 0, 0, 0, 0], 10, "fe80::/10 Link-Local Unicast", No, None),
    // Multicast (D35).
    other(v4([224, 0, 0, 0], 4, "224.0.0.0/4 Multicast", No), Registry::Multicast),
    other(v6([0xff00, 0, 0, 0, 0, 0, 0, 0], 8, "ff00::/8 Multicast", No, None), Registry::Multicast),
    // Deprecated IPv6 forms (T142).
    other(
        v6([0, 0, 0, 0, 0, 0, 0, 0], 96, "::/96 IPv4-compatible Address", No, Some(Embedding::Compatible)),
        Registry::Deprecated,
    ),
    other(v6([0xfec0, 0, 0, 0, 0, 0, 0, 0], 10, "fec0::/10 Site-Local (deprecated)", No, None), Registry::Deprecated),
];

/// The most specific entry of [`TABLE`] that contains `ip`, if any.
pub fn entry_of(ip: IpAddr) -> Option<&'static Entry> {
    TABLE.iter().filter(|e| e.contains(ip)).max_by_key(|e| e.len)
}

/// Why an address is refused: the entry it is in, and for an IPv4-carrying form the embedded
/// IPv4 address and the entry that refuses it. `Display` reads, e.g.,
/// `198.18.0.1 is in 198.18.0.0/15 Benchmarking, which is not globally reachable`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The address asked about.
    pub address: IpAddr,
    /// The most specific entry containing it.
    pub entry: &'static Entry,
    /// The IPv4 address it carries and the entry refusing that one, when [`Entry::embeds`].
    pub embedded: Option<(Ipv4Addr, &'static Entry)>,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.embedded {
            None => write!(f, "{} is in {}, which is not globally reachable", self.address, self.entry.name),
            Some((v4, inner)) => write!(
                f,
                "{} is in {} and carries {v4}, in {}, which is not globally reachable",
                self.address, self.entry.name, inner.name
            ),
        }
    }
}

/// The entry refusing an IPv4 address, if one does (no IPv4 entry embeds anything).
fn refusing_v4(ip: Ipv4Addr) -> Option<&'static Entry> {
    entry_of(IpAddr::V4(ip)).filter(|e| e.reachable != Reachable::Yes)
}

/// Why an outbound call must not connect to `ip` (D54, D35), or `None` when it may: the rule of
/// this module's documentation over [`TABLE`].
pub fn refusal(ip: IpAddr) -> Option<Refusal> {
    let entry = entry_of(ip)?;
    match (entry.embeds, ip) {
        (Some(form), IpAddr::V6(v6)) => {
            let (first, second) = form.decode(v6);
            [Some(first), second]
                .into_iter()
                .flatten()
                .find_map(|v4| refusing_v4(v4).map(|inner| Refusal { address: ip, entry, embedded: Some((v4, inner)) }))
        }
        _ => match entry.reachable {
            Reachable::Yes => None,
            Reachable::No | Reachable::NotApplicable => Some(Refusal { address: ip, entry, embedded: None }),
        },
    }
}

/// True when an outbound call must not connect to `ip` ([`refusal`] names why).
pub fn is_forbidden(ip: IpAddr) -> bool {
    refusal(ip).is_some()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    /// The first, a middle and the last address of an entry.
    fn samples(e: &Entry) -> [IpAddr; 3] {
        match e.network {
            IpAddr::V4(n) => {
                let first = u32::from(n);
                let size = 1u64 << (32 - u32::from(e.len));
                let last = (u64::from(first) + size - 1) as u32;
                let mid = (u64::from(first) + size / 2) as u32;
                [first, mid, last].map(|x| IpAddr::V4(Ipv4Addr::from(x)))
            }
            IpAddr::V6(n) => {
                let first = u128::from(n);
                let host = 128 - u32::from(e.len);
                let span = u128::MAX.checked_shr(u32::from(e.len)).unwrap_or(0);
                let mid = if host == 0 { first } else { first + (1u128 << (host - 1)) };
                [first, mid, first + span].map(|x| IpAddr::V6(Ipv6Addr::from(x)))
            }
        }
    }

    /// An entry of `TABLE` is what its name says, and appears once (T140).
    #[test]
    fn d54_every_entry_is_named_by_its_own_prefix_and_listed_once() {
        for (i, e) in TABLE.iter().enumerate() {
            let prefix = e.name.split(' ').next().unwrap();
            let (addr, len) = prefix.split_once('/').unwrap();
            assert_eq!(ip(addr), e.network, "{}", e.name);
            assert_eq!(len.parse::<u8>().unwrap(), e.len, "{}", e.name);
            assert!(e.contains(e.network), "{}: host bits set", e.name);
            let [_, _, last] = samples(e);
            assert!(e.contains(last), "{}", e.name);
            assert!(e.embeds.is_none() || e.network.is_ipv6(), "{}", e.name);
            for other in &TABLE[i + 1..] {
                assert!((other.network, other.len) != (e.network, e.len), "{} twice", e.name);
            }
        }
        let entries = |r: Registry| TABLE.iter().filter(|e| e.registry == r).count();
        assert_eq!(entries(Registry::Ipv4SpecialPurpose), 26);
        assert_eq!(entries(Registry::Ipv6SpecialPurpose), 25);
    }

    /// Every address of an entry that is not globally reachable is refused, named by that entry
    /// or a more specific one inside it; every address of a globally reachable one is allowed
    /// (D54: first, middle and last address of each).
    #[test]
    fn d54_the_table_is_refused_and_allowed_entry_by_entry() {
        for e in TABLE.iter().filter(|e| e.embeds.is_none()) {
            for a in samples(e) {
                let r = refusal(a);
                if e.reachable == Reachable::Yes {
                    assert_eq!(r, None, "{a} in {}", e.name);
                    continue;
                }
                let r = r.unwrap_or_else(|| panic!("{a} in {} is allowed", e.name));
                assert!(
                    r.entry == e || (r.entry.len > e.len && e.contains(r.entry.network)),
                    "{a} in {} is named {}",
                    e.name,
                    r.entry.name
                );
                assert!(is_forbidden(a));
                assert!(r.to_string().contains(r.entry.name), "{r}");
            }
        }
    }

    /// The named entries of D54 and of the issue, and what decides them.
    #[test]
    fn d54_the_named_ranges_are_refused_and_named() {
        for (a, named) in [
            ("198.18.0.1", "198.18.0.0/15 Benchmarking"),
            ("198.19.255.255", "198.18.0.0/15 Benchmarking"),
            ("192.88.99.1", "192.88.99.0/24 Deprecated (6to4 Relay Anycast)"),
            ("192.88.99.2", "192.88.99.2/32 6a44-relay anycast address"),
            ("240.0.0.1", "240.0.0.0/4 Reserved"),
            ("255.255.255.254", "240.0.0.0/4 Reserved"),
            ("255.255.255.255", "255.255.255.255/32 Limited Broadcast"),
            ("0.0.0.0", "0.0.0.0/32 \"This host on this network\""),
            ("0.1.2.3", "0.0.0.0/8 \"This network\""),
            ("192.0.0.8", "192.0.0.8/32 IPv4 dummy address"),
            ("192.0.0.11", "192.0.0.0/24 IETF Protocol Assignments"),
            ("169.254.169.254", "169.254.0.0/16 Link Local"),
            ("100.127.255.255", "100.64.0.0/10 Shared Address Space"),
            ("224.0.0.1", "224.0.0.0/4 Multicast"),
            ("64:ff9b:1::1", "64:ff9b:1::/48 IPv4-IPv6 Translat."),
            ("64:ff9b:1:ffff::8.8.8.8", "64:ff9b:1::/48 IPv4-IPv6 Translat."),
            ("2001:2::1", "2001:2::/48 Benchmarking"),
            ("2001:10::1", "2001:10::/28 Deprecated (previously ORCHID)"),
            ("2001:1::4", "2001::/23 IETF Protocol Assignments"),
            ("2001:db8::1", "2001:db8::/32 Documentation"),
            ("3fff:fff::1", "3fff::/20 Documentation"),
            ("5f00::1", "5f00::/16 Segment Routing (SRv6) SIDs"),
            ("100::1", "100::/64 Discard-Only Address Block"),
            ("100:0:0:1::1", "100:0:0:1::/64 Dummy IPv6 Prefix"),
            ("fd12:3456::1", "fc00::/7 Unique-Local"),
            ("fe80::1", "fe80::/10 Link-Local Unicast"),
            ("fec0::1", "fec0::/10 Site-Local (deprecated)"),
            ("ff02::1", "ff00::/8 Multicast"),
            ("::1", "::1/128 Loopback Address"),
            ("::", "::/128 Unspecified Address"),
        ] {
            let r = refusal(ip(a)).unwrap_or_else(|| panic!("{a} is allowed"));
            assert_eq!(r.entry.name, named, "{a}");
            assert_eq!(r.embedded, None, "{a}");
        }
        assert_eq!(
            refusal(ip("198.18.0.1")).unwrap().to_string(),
            "198.18.0.1 is in 198.18.0.0/15 Benchmarking, which is not globally reachable"
        );
    }

    /// The globally reachable entries inside non-reachable blocks, and public addresses, are
    /// allowed (D54: the most specific entry wins).
    #[test]
    fn d54_globally_reachable_sub_entries_and_public_addresses_are_allowed() {
        for a in [
            "192.0.0.9",
            "192.0.0.10",
            "192.31.196.1",
            "192.52.193.255",
            "192.175.48.6",
            "2001:1::1",
            "2001:1::2",
            "2001:1::3",
            "2001:3::1",
            "2001:4:112::1",
            "2001:20::1",
            "2001:30::1",
            "2620:4f:8000::1",
            "8.8.8.8",
            "1.1.1.1",
            "93.184.216.34",
            "198.17.255.255",
            "198.20.0.0",
            "223.255.255.255",
            "100.63.255.255",
            "100.128.0.0",
            "2606:4700::1111",
            "2a00:1450::1",
            "2003::1",
            "2001:200::1",
        ] {
            assert_eq!(refusal(ip(a)), None, "{a} is refused: {:?}", refusal(ip(a)).map(|r| r.to_string()));
            assert!(!is_forbidden(ip(a)), "{a}");
        }
    }

    /// The IPv6 forms that carry an IPv4 address are decided by it (D54: 2002::/16 and 2001::/32
    /// checked on the IPv4 address they embed).
    #[test]
    fn d54_ipv4_carrying_forms_are_decided_by_the_address_they_carry() {
        let refused = [
            ("2002:7f00:1::1", "2002::/16 6to4", "127.0.0.1", "127.0.0.0/8 Loopback"),
            ("2002:c612:1::", "2002::/16 6to4", "198.18.0.1", "198.18.0.0/15 Benchmarking"),
            ("2002:c058:6301::", "2002::/16 6to4", "192.88.99.1", "192.88.99.0/24 Deprecated (6to4 Relay Anycast)"),
            ("2002:a00:1::1", "2002::/16 6to4", "10.0.0.1", "10.0.0.0/8 Private-Use"),
            // Teredo: the server (bits 32..64) ...
            ("2001:0:7f00:1::1", "2001::/32 TEREDO", "127.0.0.1", "127.0.0.0/8 Loopback"),
            ("2001:0:a9fe:a9fe::f7f7:f7f7", "2001::/32 TEREDO", "169.254.169.254", "169.254.0.0/16 Link Local"),
            // ... or the client (the last 32 bits, inverted: 0x80fffffe is 127.0.0.1).
            ("2001:0:808:808::80ff:fffe", "2001::/32 TEREDO", "127.0.0.1", "127.0.0.0/8 Loopback"),
            ("::ffff:127.0.0.1", "::ffff:0:0/96 IPv4-mapped Address", "127.0.0.1", "127.0.0.0/8 Loopback"),
            ("::ffff:198.18.0.1", "::ffff:0:0/96 IPv4-mapped Address", "198.18.0.1", "198.18.0.0/15 Benchmarking"),
            ("::ffff:224.0.0.1", "::ffff:0:0/96 IPv4-mapped Address", "224.0.0.1", "224.0.0.0/4 Multicast"),
            ("::127.0.0.1", "::/96 IPv4-compatible Address", "127.0.0.1", "127.0.0.0/8 Loopback"),
            ("::10.0.0.1", "::/96 IPv4-compatible Address", "10.0.0.1", "10.0.0.0/8 Private-Use"),
            ("64:ff9b::a00:1", "64:ff9b::/96 IPv4-IPv6 Translat.", "10.0.0.1", "10.0.0.0/8 Private-Use"),
            ("64:ff9b::127.0.0.1", "64:ff9b::/96 IPv4-IPv6 Translat.", "127.0.0.1", "127.0.0.0/8 Loopback"),
            ("64:ff9b::c0a8:1", "64:ff9b::/96 IPv4-IPv6 Translat.", "192.168.0.1", "192.168.0.0/16 Private-Use"),
        ];
        for (a, outer, v4, inner) in refused {
            let r = refusal(ip(a)).unwrap_or_else(|| panic!("{a} is allowed"));
            assert_eq!(r.entry.name, outer, "{a}");
            let (got, by) = r.embedded.unwrap_or_else(|| panic!("{a}: no embedded address"));
            assert_eq!((got.to_string().as_str(), by.name), (v4, inner), "{a}");
        }
        assert_eq!(
            refusal(ip("2002:7f00:1::1")).unwrap().to_string(),
            "2002:7f00:1::1 is in 2002::/16 6to4 and carries 127.0.0.1, in 127.0.0.0/8 Loopback, \
             which is not globally reachable"
        );
        for a in [
            "2002:0808:0808::1",
            "2002:101:101:ffff::1",
            // Teredo server 8.8.8.8, client 8.8.8.8 (0xf7f7f7f7 inverted).
            "2001:0:808:808::f7f7:f7f7",
            "::ffff:8.8.8.8",
            "::8.8.8.8",
            "64:ff9b::808:808",
            "64:ff9b::192.0.0.9",
        ] {
            assert_eq!(refusal(ip(a)), None, "{a}: {:?}", refusal(ip(a)).map(|r| r.to_string()));
        }
        // The decoding itself.
        assert_eq!(
            Embedding::Teredo.decode("2001:0:4136:e378:8000:63bf:3fff:fdd2".parse().unwrap()),
            (Ipv4Addr::new(65, 54, 227, 120), Some(Ipv4Addr::new(192, 0, 2, 45)))
        );
        assert_eq!(
            Embedding::SixToFour.decode("2002:c000:204::1".parse().unwrap()),
            (Ipv4Addr::new(192, 0, 2, 4), None)
        );
    }
}
