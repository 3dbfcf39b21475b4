//! The MPI backend (cargo feature `mpi`, `docs/cluster.md`): `mpirun -np P palace stats
//! --palaces-only` against one process, byte for byte on stdout, with the ranks checked to have
//! formed one world of `P`; a rank's error stops every rank (no hang); what does not run over
//! ranks yet is refused. Without `mpirun` on the path these tests pass with a note unless
//! `PALACE_REQUIRE_MPI` is set; CI sets it and installs OpenMPI, so there they run for real.
//!
//! Without the feature, only the refusal of a launch of several ranks is tested (an MPI
//! launcher is recognised by the environment it gives each rank, which these tests set).

use crate::common::palace;

/// A launcher's environment of one rank of `size`, without a launcher: a build without MPI
/// refuses several ranks, and one rank runs as one process.
#[test]
fn a_launch_of_several_ranks_without_the_mpi_backend_says_how_to_build_it() {
    let args = ["stats", "--palaces-only", "--k", "100", "--width", "300", "--height", "200"];
    let alone = palace().args(args).assert().success().get_output().stdout.clone();
    let one_rank = palace().args(args).env("OMPI_COMM_WORLD_SIZE", "1").assert().success();
    assert_eq!(one_rank.get_output().stdout, alone);
    if cfg!(feature = "mpi") {
        return;
    }
    let out = palace().args(args).env("OMPI_COMM_WORLD_SIZE", "3").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("one of 3 MPI ranks") && err.contains("--features mpi"), "{err}");
}

#[cfg(feature = "mpi")]
mod with_the_feature {
    use crate::common::{bin, palace};
    use std::path::PathBuf;
    use std::process::{Command, Output, Stdio};
    use std::time::{Duration, Instant};

    /// `mpirun`, or `None` (with a note) where it is not on the path and `PALACE_REQUIRE_MPI`
    /// is not set.
    fn mpirun() -> Option<PathBuf> {
        let found = std::env::var_os("PATH")
            .into_iter()
            .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
            .map(|d| d.join("mpirun"))
            .find(|p| p.is_file());
        if found.is_none() {
            assert!(
                std::env::var_os("PALACE_REQUIRE_MPI").is_none(),
                "PALACE_REQUIRE_MPI is set but mpirun is not on the path"
            );
            eprintln!("no mpirun on the path; MPI tests skipped (PALACE_REQUIRE_MPI=1 fails instead)");
        }
        found
    }

    /// The longest a job may take: a rank that fails must stop the others, not leave them
    /// waiting.
    const DEADLINE: Duration = Duration::from_secs(120);

    /// Runs `mpirun` with `apps` (each `-np N` and its command line, joined by `:`), failing
    /// the test if the job outlives [`DEADLINE`]. Oversubscribed ranks yield when idle
    /// rather than spin; running as root is allowed (CI's containers).
    fn job(mpirun: &PathBuf, apps: &[(usize, &[&str])]) -> Output {
        let apps: Vec<(usize, &[&str], &[&str])> =
            apps.iter().map(|&(np, args)| (np, &[][..], args)).collect();
        job_with_env(mpirun, &apps)
    }

    /// [`job`], each app's ranks with the environment variables `VAR=VALUE` it lists.
    fn job_with_env(mpirun: &PathBuf, apps: &[(usize, &[&str], &[&str])]) -> Output {
        let mut cmd = Command::new(mpirun);
        cmd.arg("--oversubscribe")
            .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
            .env("OMPI_MCA_mpi_yield_when_idle", "1");
        for (i, (np, env, args)) in apps.iter().enumerate() {
            if i > 0 {
                cmd.arg(":");
            }
            cmd.arg("-np").arg(np.to_string());
            if !env.is_empty() {
                cmd.arg("env").args(*env);
            }
            cmd.arg(bin()).args(*args);
        }
        let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("mpirun starts");
        let started = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if started.elapsed() > DEADLINE {
                child.kill().unwrap();
                let out = child.wait_with_output().unwrap();
                panic!("{apps:?} hung; stderr: {}", String::from_utf8_lossy(&out.stderr));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        child.wait_with_output().unwrap()
    }

    /// `stats --palaces-only` over 2 and 3 ranks writes what one process writes, byte for byte,
    /// and says it ran over that many: games before and past the shoulder, boards narrow and
    /// wide, a strip wholly in outer space (k = 40003 on a short board).
    #[test]
    fn the_palace_count_over_ranks_is_one_process_s_byte_for_byte() {
        let Some(mpirun) = mpirun() else { return };
        for (k, w, h) in
            [(1, 40, 30), (7, 500, 5000), (100, 3000, 2000), (2000, 9000, 2500), (40003, 60000, 700)]
        {
            let (k, w, h) = (k.to_string(), w.to_string(), h.to_string());
            let args =
                ["stats", "--palaces-only", "--k", &k, "--width", &w, "--height", &h, "--threads", "1"];
            let alone = palace().args(args).assert().success().get_output().stdout.clone();
            for np in [2, 3] {
                let out = job(&mpirun, &[(np, &args)]);
                let err = String::from_utf8_lossy(&out.stderr);
                assert!(out.status.success(), "k {k} {w} x {h} on {np} ranks: {err}");
                assert_eq!(
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&alone),
                    "k {k} {w} x {h} on {np} ranks"
                );
                // One world of np ranks, not np worlds of one (a launcher of another MPI).
                assert_eq!(err.matches(&format!("over {np} MPI ranks")).count(), 1, "{err}");
            }
        }
    }

    /// With one rank the launcher changes nothing: no world is joined.
    #[test]
    fn one_rank_runs_as_one_process() {
        let Some(mpirun) = mpirun() else { return };
        let args = ["stats", "--palaces-only", "--k", "100", "--width", "3000", "--height", "2000"];
        let alone = palace().args(args).assert().success().get_output().stdout.clone();
        let out = job(&mpirun, &[(1, &args)]);
        assert!(out.status.success());
        assert_eq!(out.stdout, alone);
        assert!(!String::from_utf8_lossy(&out.stderr).contains("MPI ranks"));
    }

    /// A rank that fails (here rank 1, whose environment caps the kernels at a set that does
    /// not exist, while rank 0 waits for it in the sweep) says so with its rank and stops the
    /// job: a non-zero exit, no output, no hang.
    #[test]
    fn an_error_on_one_rank_stops_every_rank() {
        let Some(mpirun) = mpirun() else { return };
        let args = ["stats", "--palaces-only", "--k", "100", "--width", "3000", "--height", "2000"];
        let out = job_with_env(&mpirun, &[(1, &[], &args), (1, &["PALACE_ISA=none-such"], &args)]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{err}");
        assert!(out.stdout.is_empty());
        assert!(err.contains("palace: error on rank 1 of 2: PALACE_ISA"), "{err}");
    }

    /// Ranks given different command lines (another board, another command, which would
    /// leave the first waiting forever) refuse to run.
    #[test]
    fn ranks_given_different_commands_refuse_to_run() {
        let Some(mpirun) = mpirun() else { return };
        let a = ["stats", "--palaces-only", "--k", "100", "--width", "3000", "--height", "2000"];
        let b = ["stats", "--palaces-only", "--k", "101", "--width", "3000", "--height", "2000"];
        let c = ["cell", "--k", "5", "--at", "1,1"];
        for other in [&b[..], &c] {
            let out = job(&mpirun, &[(1, &a), (1, other)]);
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(!out.status.success(), "{err}");
            assert!(out.stdout.is_empty());
            assert!(err.contains("were given different runs (their command lines differ)"), "{err}");
        }
    }

    /// What does not run over ranks yet is refused, by every rank, as a usage error.
    #[test]
    fn runs_not_distributed_yet_are_refused_over_ranks() {
        let Some(mpirun) = mpirun() else { return };
        let dir = tempfile::tempdir().unwrap();
        let ckpt = dir.path().join("count.ckpt");
        let ckpt = ckpt.to_str().unwrap();
        for args in [
            &["stats", "--k", "100", "--size", "300"][..],
            &["skin", "--k", "50", "--to", "100"],
            &["stats", "--palaces-only", "--k", "100", "--size", "300", "--checkpoint", ckpt],
        ] {
            let out = job(&mpirun, &[(2, args)]);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
            assert!(err.contains("does not run over MPI ranks yet"), "{args:?}: {err}");
        }
    }
}
