"""Independent evidence for differentiability tags (interface documented as it lands)."""
