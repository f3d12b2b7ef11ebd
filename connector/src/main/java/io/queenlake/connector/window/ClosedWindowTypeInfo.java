package io.queenlake.connector.window;

import io.queenlake.connector.window.ClosedWindow;
import io.queenlake.source.serde.SingleSerializerTypeInfo;
import java.lang.reflect.Type;
import java.util.Map;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * The type of the window operator's output and the lake sink's input, written by
 * {@link ClosedWindowSerializer}. {@link ClosedWindow} names {@link Factory} in its
 * {@code @TypeInfo}, so {@code TypeInformation.of(ClosedWindow.class)} finds it too.
 */
@PublicEvolving
public final class ClosedWindowTypeInfo extends SingleSerializerTypeInfo<ClosedWindow> {

    private static final long serialVersionUID = 1L;

    public static final ClosedWindowTypeInfo INSTANCE = new ClosedWindowTypeInfo();

    public ClosedWindowTypeInfo() {
        super(ClosedWindow.class, ClosedWindowSerializer.INSTANCE);
    }

    /** What Flink's type extractor calls for {@code @TypeInfo(ClosedWindowTypeInfo.Factory.class)}. */
    public static final class Factory extends TypeInfoFactory<ClosedWindow> {
        @Override
        public TypeInformation<ClosedWindow> createTypeInfo(Type t, Map<String, TypeInformation<?>> genericParameters) {
            return INSTANCE;
        }
    }
}
