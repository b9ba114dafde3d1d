package io.microburst.localcluster;

import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A class's public API as comparable text, one line per item: the class's kind and modifiers, its superclass and
 * interfaces, and each public constructor, method (not bridges or synthetic ones), field and nested
 * class, with generic types, checked exceptions (sorted) and {@code @Deprecated}. Names only: two loaders' classes of
 * the same name describe alike. {@code synchronized} is left out: it is not part of what callers compile against.
 */
final class Signatures {
    private Signatures() {
    }

    static Set<String> of(Class<?> type) {
        Set<String> lines = new TreeSet<>();
        lines.add("class " + modifiers(type.getModifiers() & ~Modifier.SYNCHRONIZED) + type.getName()
            + typeParameters(type.getTypeParameters()));
        lines.add("superclass " + (type.getGenericSuperclass() == null ? "none" : type.getGenericSuperclass().getTypeName()));
        lines.add("interfaces " + Arrays.stream(type.getGenericInterfaces()).map(Type::getTypeName).sorted()
            .collect(Collectors.joining(", ")));
        // Public members only, through the reflection calls that resolve no private member's types (storm-server's
        // private members name libraries of its own, not on this class path); neither side has protected members
        // (storm-server's sources have none; SignatureParityTest checks ours).
        for (Constructor<?> c : type.getConstructors()) {
            if (!c.isSynthetic()) {
                lines.add(deprecated(c) + modifiers(c.getModifiers()) + "new" + parameters(c) + exceptions(c));
            }
        }
        for (Method m : type.getMethods()) {
            if (m.getDeclaringClass() == type && !m.isSynthetic() && !m.isBridge()) {
                lines.add(deprecated(m) + modifiers(m.getModifiers()) + typeParameters(m.getTypeParameters())
                    + m.getGenericReturnType().getTypeName() + " " + m.getName() + parameters(m) + exceptions(m));
            }
        }
        for (Field f : type.getFields()) {
            if (f.getDeclaringClass() == type && !f.isSynthetic()) {
                lines.add("field " + modifiers(f.getModifiers()) + f.getGenericType().getTypeName() + " " + f.getName());
            }
        }
        for (Class<?> nested : type.getClasses()) {
            if (nested.getDeclaringClass() == type) {
                lines.add("nested " + nested.getName());
            }
        }
        return lines;
    }

    /** Whether {@code type} declares a protected constructor, method or field (for our classes only). */
    static boolean declaresProtected(Class<?> type) {
        return java.util.stream.Stream.of(type.getDeclaredConstructors(), type.getDeclaredMethods(), type.getDeclaredFields())
            .flatMap(Arrays::stream).anyMatch(m -> Modifier.isProtected(((java.lang.reflect.Member) m).getModifiers()));
    }

    private static String modifiers(int modifiers) {
        String text = Modifier.toString(modifiers & ~Modifier.SYNCHRONIZED & ~Modifier.TRANSIENT & ~Modifier.VOLATILE);
        return text.isEmpty() ? "" : text + " ";
    }

    private static String deprecated(Executable e) {
        return e.isAnnotationPresent(Deprecated.class) ? "@Deprecated " : "";
    }

    private static String typeParameters(TypeVariable<?>[] variables) {
        if (variables.length == 0) {
            return "";
        }
        return Arrays.stream(variables).map(v -> v.getName() + bounds(v)).collect(Collectors.joining(", ", "<", "> "));
    }

    private static String bounds(TypeVariable<?> variable) {
        Type[] bounds = variable.getBounds();
        if (bounds.length == 1 && bounds[0] == Object.class) {
            return "";
        }
        return " extends " + Arrays.stream(bounds).map(Type::getTypeName).collect(Collectors.joining(" & "));
    }

    private static String parameters(Executable e) {
        return Arrays.stream(e.getGenericParameterTypes()).map(Type::getTypeName).collect(Collectors.joining(",", "(", ")"));
    }

    private static String exceptions(Executable e) {
        Set<String> names = new TreeSet<>();
        for (Type t : e.getGenericExceptionTypes()) {
            names.add(t.getTypeName());
        }
        return names.isEmpty() ? "" : " throws " + String.join(", ", names);
    }
}
