"""Templates that `memory init` copies into a new workspace (shipped as package data)."""
