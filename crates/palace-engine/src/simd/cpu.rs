//! The instruction sets palace's run-time dispatchers may use: what this CPU has, optionally
//! capped by the environment variable `PALACE_ISA` (`avx512`, `avx2` or `portable`).
//!
//! Without a cap, AMD family 19h CPUs (Zen 4; Zen 3 has no AVX-512) stop at AVX2: they run
//! each 512-bit operation as two 256-bit halves, and palace's AVX2 paths measured 3-5 % faster
//! than its AVX-512 ones there, on one thread and on two (`docs/performance.md`, "Instruction-set choice").
//! `PALACE_ISA=avx512` asks for AVX-512 wherever the CPU has it.
//!
//! The cap lets one machine stand in for a smaller one: `PALACE_ISA=avx2 palace bench` runs
//! every automatic choice (the kernel of `--kernel auto`, the histogram, the deflate encoder)
//! as on a CPU without AVX-512, such as an AVX2-only Zen 3. An explicit
//! `--kernel` is not capped. The binary refuses an unknown value before any work
//! ([`check_env`], exit 2); the library itself never panics on one.

use std::sync::OnceLock;

/// An instruction-set level, from the plainest up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Isa {
    /// Plain Rust (SSE2 at most on x86-64).
    Portable,
    /// AVX2 (with BMI2 where the deflate encoder asks for it).
    Avx2,
    /// AVX-512 F, BW and VBMI.
    Avx512,
}

impl Isa {
    /// The name `PALACE_ISA` takes and reports print.
    pub fn name(self) -> &'static str {
        match self {
            Isa::Portable => "portable",
            Isa::Avx2 => "avx2",
            Isa::Avx512 => "avx512",
        }
    }

    fn parse(s: &str) -> Option<Isa> {
        [Isa::Portable, Isa::Avx2, Isa::Avx512]
            .into_iter()
            .find(|i| i.name() == s.trim().to_ascii_lowercase())
    }
}

/// The highest level this CPU supports.
pub fn detected() -> Isa {
    #[cfg(target_arch = "x86_64")]
    {
        if is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("avx512vbmi")
        {
            return Isa::Avx512;
        }
        if is_x86_feature_detected!("avx2") {
            return Isa::Avx2;
        }
    }
    Isa::Portable
}

/// The cap `PALACE_ISA` sets, if any. A value that is not one of the accepted names sets no
/// cap here (the choice then only affects speed: every level gives the same results); callers
/// that take `PALACE_ISA` from a user report it with [`check_env`] before any work, as the
/// `palace` binary does.
pub fn cap() -> Option<Isa> {
    static CAP: OnceLock<Option<Isa>> = OnceLock::new();
    *CAP.get_or_init(|| from_env().unwrap_or(None))
}

/// `PALACE_ISA` read and parsed, or the message naming the accepted values.
fn from_env() -> Result<Option<Isa>, String> {
    match std::env::var("PALACE_ISA") {
        Ok(v) => Isa::parse(&v)
            .map(Some)
            .ok_or_else(|| format!("PALACE_ISA={v:?} is not one of avx512, avx2, portable")),
        Err(_) => Ok(None),
    }
}

/// The level automatic choices use: [`detected`], lowered to [`cap`] if one is set, else to
/// AVX2 where AVX-512 is split into halves ([`splits_512`]).
pub fn level() -> Isa {
    static LEVEL: OnceLock<Isa> = OnceLock::new();
    *LEVEL.get_or_init(|| match cap() {
        Some(c) => c.min(detected()),
        None if detected() == Isa::Avx512 && splits_512() => Isa::Avx2,
        None => detected(),
    })
}

/// Why [`level`] is what it is, for reports.
pub fn reason() -> String {
    let (l, d) = (level().name(), detected().name());
    match cap() {
        Some(c) if c < detected() => format!("{l} (PALACE_ISA={} caps this CPU's {d})", c.name()),
        Some(c) => format!("{l} (PALACE_ISA={})", c.name()),
        None if l != d => format!(
            "{l} (this CPU has {d} but splits 512-bit operations in two; PALACE_ISA=avx512 to use it)"
        ),
        None => format!("{l} (all this CPU has)"),
    }
}

/// The CPU's model name as the operating system reports it (`/proc/cpuinfo` on Linux), if it
/// does: for reports, since measured speeds belong to a machine.
pub fn model_name() -> Option<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("model name"))?;
    Some(line.split_once(':')?.1.trim().to_string())
}

/// Whether this is an AMD family 19h CPU (Zen 3, Zen 4), which executes 512-bit vector
/// operations as two 256-bit halves.
pub fn splits_512() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::__cpuid;
        let v = __cpuid(0);
        let vendor: Vec<u8> = [v.ebx, v.edx, v.ecx].iter().flat_map(|r| r.to_le_bytes()).collect();
        let eax = __cpuid(1).eax;
        let base = (eax >> 8) & 0xf;
        let family = if base == 0xf { base + ((eax >> 20) & 0xff) } else { base };
        vendor == b"AuthenticAMD" && family == 0x19
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Checks `PALACE_ISA` up front, so a bad value is a clear error before any work starts.
pub fn check_env() -> crate::error::Result<()> {
    match from_env() {
        Ok(_) => Ok(()),
        Err(_) => Err(crate::error::Error::Environment {
            variable: "PALACE_ISA",
            value: std::env::var("PALACE_ISA").unwrap_or_default(),
            expected: "not one of avx512, avx2, portable",
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_order() {
        for i in [Isa::Portable, Isa::Avx2, Isa::Avx512] {
            assert_eq!(Isa::parse(i.name()), Some(i));
        }
        assert_eq!(Isa::parse(" AVX2 "), Some(Isa::Avx2));
        assert_eq!(Isa::parse("sse4"), None);
        assert!(Isa::Portable < Isa::Avx2 && Isa::Avx2 < Isa::Avx512);
        assert!(level() <= detected());
    }
}
