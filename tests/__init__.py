"""The suite, in folders by the stages of the package (see README's Layout)."""
