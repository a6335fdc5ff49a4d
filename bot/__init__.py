"""够级 (Gouji) bot: rules engine, table manager, AI seats and platform glue."""
