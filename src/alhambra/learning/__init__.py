"""Learning from self-play: data generation (numpy) and training (PyTorch, extra ``train``)."""
