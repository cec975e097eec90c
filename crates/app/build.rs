//! Records the git commit the binary is built from, for `talent_build_info` (issue 17):
//! the `TALENT_GIT_COMMIT` environment variable when set (a container build, which has no
//! `.git`), else `git rev-parse`, else `unknown`.

fn main() {
    println!("cargo:rerun-if-env-changed=TALENT_GIT_COMMIT");
    println!("cargo:rerun-if-changed=../../.git/HEAD");
    println!("cargo:rerun-if-changed=../../.git/refs/heads");
    let commit = std::env::var("TALENT_GIT_COMMIT")
        .ok()
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty())
        .or_else(|| {
            std::process::Command::new("git")
                .args(["rev-parse", "--short=12", "HEAD"])
                .output()
                .ok()
                .filter(|o| o.status.success())
                .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
                .filter(|c| !c.is_empty())
        })
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=TALENT_GIT_COMMIT={commit}");
}
