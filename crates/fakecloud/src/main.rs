//! `terraform-provider-fakecloud`: the binary Terraform starts as a plugin.

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    // tf-provider appends a backtrace to every error diagnostic when backtraces are enabled;
    // Terraform users should see only the message.
    std::env::set_var("RUST_LIB_BACKTRACE", "0");
    fakecloud::nodelay::spawn_watcher();
    fakecloud::serve().await
}
