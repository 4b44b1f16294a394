package dev.continuum.edge.protocol;

/** A message with at most one tensor, which {@link Wire} may send as the raw body of a binary frame. */
public interface CarriesTensor<T extends CarriesTensor<T>> {

    /** The tensor, or null. */
    Tensor tensor();

    /** The same message with {@code tensor} in its place. */
    T withTensor(Tensor tensor);
}
