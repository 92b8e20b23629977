import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';

export async function usersRoutes(_fastify: FastifyInstance, _ctx: AppContext): Promise<void> {}
