package adequacy.rac;

import jdk.internal.org.objectweb.asm.ClassReader;
import jdk.internal.org.objectweb.asm.ClassVisitor;
import jdk.internal.org.objectweb.asm.ClassWriter;
import jdk.internal.org.objectweb.asm.MethodVisitor;
import jdk.internal.org.objectweb.asm.Opcodes;

/**
 * A reference's class files with every int and long {@code + - * /}, unary minus and
 * {@code iinc} replaced by a call of {@link Overflow}'s checked operation of the same stack
 * effect (so the class's stack map frames stay true; ASM recomputes only the maximum stack,
 * which {@code iinc}'s expansion raises by two). Done in the compile JVM, after javac, with
 * the JDK's own copy of ASM: the reference's source is not rewritten, so what runs is what
 * javac made of it, checked. So are calls of {@code Math.abs} (whose value at {@code MIN_VALUE}
 * is {@code MIN_VALUE}), {@code Integer.sum} and {@code Long.sum}. Narrowing casts are left
 * alone: in Java they are how code asks for a truncation, and OpenJML's safe math checks the
 * operations above.
 */
final class Checked {
    private Checked() { }

    static final String OPS = "adequacy/rac/Overflow";

    static byte[] transform(byte[] bytes) {
        ClassReader reader = new ClassReader(bytes);
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        reader.accept(new ClassVisitor(Opcodes.ASM8, writer) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String signature,
                                             String[] exceptions) {
                return new Ops(super.visitMethod(access, name, desc, signature, exceptions));
            }
        }, 0);
        return writer.toByteArray();
    }

    static final class Ops extends MethodVisitor {
        Ops(MethodVisitor next) { super(Opcodes.ASM8, next); }

        private void call(String name, String desc) {
            super.visitMethodInsn(Opcodes.INVOKESTATIC, OPS, name, desc, false);
        }

        @Override
        public void visitInsn(int opcode) {
            switch (opcode) {
                case Opcodes.IADD: call("add", "(II)I"); break;
                case Opcodes.ISUB: call("sub", "(II)I"); break;
                case Opcodes.IMUL: call("mul", "(II)I"); break;
                case Opcodes.IDIV: call("div", "(II)I"); break;
                case Opcodes.INEG: call("neg", "(I)I"); break;
                case Opcodes.LADD: call("add", "(JJ)J"); break;
                case Opcodes.LSUB: call("sub", "(JJ)J"); break;
                case Opcodes.LMUL: call("mul", "(JJ)J"); break;
                case Opcodes.LDIV: call("div", "(JJ)J"); break;
                case Opcodes.LNEG: call("neg", "(J)J"); break;
                default: super.visitInsn(opcode);
            }
        }

        /** The JDK's own wrapping helpers that code calls in place of an operator. Library
         *  code that wraps inside (an {@code IntStream}'s {@code sum()}) is not reached. */
        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String desc,
                                    boolean itf) {
            if (opcode == Opcodes.INVOKESTATIC && !itf) {
                String m = owner + "." + name + desc;
                switch (m) {
                    case "java/lang/Math.abs(I)I": call("abs", "(I)I"); return;
                    case "java/lang/Math.abs(J)J": call("abs", "(J)J"); return;
                    case "java/lang/Integer.sum(II)I": call("add", "(II)I"); return;
                    case "java/lang/Long.sum(JJ)J": call("add", "(JJ)J"); return;
                    default: break;
                }
            }
            super.visitMethodInsn(opcode, owner, name, desc, itf);
        }

        @Override
        public void visitIincInsn(int var, int increment) {
            super.visitVarInsn(Opcodes.ILOAD, var);
            super.visitLdcInsn(increment);
            call("add", "(II)I");
            super.visitVarInsn(Opcodes.ISTORE, var);
        }
    }
}
