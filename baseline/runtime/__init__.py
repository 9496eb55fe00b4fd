"""What every family's search runs on: kernel return codes and state slots, the driver that runs a
kernel in time slices, snapshots for checkpoints, and the warm-up of compiled kernels."""
