"""Facts about the machine and the checkpoint: the fact vocabulary, GPU capabilities, facts read from
the log, environment dumps, checkpoint configs and the live probe."""
