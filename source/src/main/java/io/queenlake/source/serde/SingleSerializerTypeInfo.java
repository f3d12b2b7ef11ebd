package io.queenlake.source.serde;

import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Type information for a value Flink must treat as one opaque field written by one dedicated
 * serializer, so neither the POJO analyser nor Kryo ever touches it.
 */
@Internal
public abstract class SingleSerializerTypeInfo<T> extends TypeInformation<T> {

    private static final long serialVersionUID = 1L;

    private final Class<T> type;
    private final TypeSerializer<T> serializer;

    protected SingleSerializerTypeInfo(Class<T> type, TypeSerializer<T> serializer) {
        this.type = Objects.requireNonNull(type, "type");
        this.serializer = Objects.requireNonNull(serializer, "serializer");
    }

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<T> getTypeClass() {
        return type;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<T> createSerializer(SerializerConfig config) {
        return serializer;
    }

    @Override
    public String toString() {
        return type.getSimpleName() + "<" + serializer.getClass().getSimpleName() + ">";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SingleSerializerTypeInfo<?> other && other.canEqual(this) && type == other.type;
    }

    @Override
    public int hashCode() {
        return type.hashCode();
    }

    @Override
    public boolean canEqual(Object o) {
        return o != null && o.getClass() == getClass();
    }
}
