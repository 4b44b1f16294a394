/**
 * Machinery behind the public provider API: HTTP routes, the action life cycle, input
 * validation and push callbacks. No compatibility promise; use {@code dev.continuum.provider.server}.
 */
package dev.continuum.provider.internal;
