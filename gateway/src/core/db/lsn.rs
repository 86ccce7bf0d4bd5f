//! A WAL position (`pg_lsn`) as PostgreSQL prints it, `16/B374D848`: the high and low 32 bits in hexadecimal.

use std::fmt;

/// A write-ahead log position; positions order as the log does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Lsn(pub u64);

impl Lsn {
    /// Parses PostgreSQL's text form; `None` for anything else.
    pub fn parse(text: &str) -> Option<Lsn> {
        let (high, low) = text.trim().split_once('/')?;
        let high = u32::from_str_radix(high, 16).ok()?;
        let low = u32::from_str_radix(low, 16).ok()?;
        Some(Lsn((u64::from(high) << 32) | u64::from(low)))
    }
}

impl fmt::Display for Lsn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:X}/{:X}", self.0 >> 32, self.0 & 0xFFFF_FFFF)
    }
}

#[cfg(test)]
mod tests {
    use super::Lsn;

    #[test]
    fn parses_and_prints_postgres_text_form() {
        let lsn = Lsn::parse("16/B374D848").unwrap();
        assert_eq!(lsn.0, 0x16_B374_D848);
        assert_eq!(lsn.to_string(), "16/B374D848");
        assert_eq!(Lsn::parse("0/0"), Some(Lsn(0)));
        assert!(Lsn::parse("0/3000028").unwrap() > Lsn::parse("0/3000000").unwrap());
        assert!(Lsn::parse("1/0").unwrap() > Lsn::parse("0/FFFFFFFF").unwrap());
    }

    #[test]
    fn refuses_other_text() {
        for bad in ["", "16", "16/", "/1", "G/1", "1/2/3", "100000000/0"] {
            assert_eq!(Lsn::parse(bad), None, "{bad}");
        }
    }
}
