"""What people see in a terminal: the live display, the plain step trace, control characters made safe."""
