"""Tests of the framework adapters (hookwire.adapters), against the real frameworks."""
