fn main() {
    std::process::exit(alea::cli::main());
}
