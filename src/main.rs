//! `sensei-lab`: natively, the command line; compiled to wasm (by Trunk),
//! the lab in the browser.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    sensei_lab::cli::main()
}

#[cfg(target_arch = "wasm32")]
fn main() {
    #[cfg(feature = "solo")]
    sensei_lab::ui::solo();
    #[cfg(not(feature = "solo"))]
    sensei_lab::ui::start();
}
