import { Component, type ReactNode } from 'react';
import { Box, Container } from '@mantine/core';
import { ErrorView } from '../components/error-view';

/** The landing page's error view before the router (whose root errorElement does this inside it) is loaded. */
export class LandingBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state = { error: null as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error('Unknown error') };
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    return (
      <Box mih="100dvh" bg="gray.0" py="xl">
        <Container size="sm" component="main">
          <ErrorView error={this.state.error} withRefresh />
        </Container>
      </Box>
    );
  }
}
