// Placeholder until the StreamCore issue lands.
