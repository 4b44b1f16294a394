package dev.continuum.provider.transfer.endpoint;

/** What a caller wants to do on an endpoint: read (ls, transfer source) or write (mkdir, delete, transfer destination). */
public enum Access { READ, WRITE }
