"""The models of the programs a workload file meets: SimAI, which reads it, and AICB,
which writes it."""
